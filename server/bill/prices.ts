// The price map: what a million tokens of each model cost (input, output, cached input), read from
// QUORUM_PRICES (JSON), so the bill can show money beside tokens. A model without a price costs null.
import { z } from "zod";
import type { BillLine } from "../journal/views/bill-fold";

const price = z.strictObject({
  /** Per million input tokens that were not served from the cache. */
  input: z.number().min(0),
  output: z.number().min(0),
  /** Per million cached input tokens; the input price when absent. */
  cachedInput: z.number().min(0).optional(),
});
export type Price = z.infer<typeof price>;

/** Model name → price; the key "*" prices every model not named. */
export const priceMapSchema = z.record(z.string().min(1), price);
export type PriceMap = z.infer<typeof priceMapSchema>;

export interface PriceConfig {
  currency: string;
  prices: PriceMap;
  /** Why QUORUM_PRICES was ignored, when it was. */
  problem: string | null;
}

/** Reads the price map from the environment; a malformed map is reported, never fatal. */
export function priceConfig(env: Record<string, string | undefined> = process.env): PriceConfig {
  const currency = env.QUORUM_CURRENCY?.trim() || "USD";
  const raw = env.QUORUM_PRICES?.trim();
  if (!raw) return { currency, prices: {}, problem: null };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { currency, prices: {}, problem: "QUORUM_PRICES is not valid JSON" };
  }
  const parsed = priceMapSchema.safeParse(value);
  if (!parsed.success) {
    return { currency, prices: {}, problem: `QUORUM_PRICES: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}` };
  }
  return { currency, prices: parsed.data, problem: null };
}

export function priceOf(prices: PriceMap, model: string): Price | null {
  return prices[model] ?? prices["*"] ?? null;
}

/** The cost of one model's usage, or null when the model has no price. */
export function costOf(prices: PriceMap, model: string, usage: Pick<BillLine, "inputTokens" | "outputTokens" | "cachedTokens">): number | null {
  const p = priceOf(prices, model);
  if (!p) return null;
  const cached = Math.min(usage.cachedTokens, usage.inputTokens);
  const fresh = usage.inputTokens - cached;
  return (fresh * p.input + cached * (p.cachedInput ?? p.input) + usage.outputTokens * p.output) / 1_000_000;
}

/** Money beside tokens: the cost of what has a price, and how many tokens have none. */
export interface Cost {
  cost: number;
  unpricedTokens: number;
}

export const noCost = (): Cost => ({ cost: 0, unpricedTokens: 0 });

export function addCost(into: Cost, prices: PriceMap, model: string, usage: Pick<BillLine, "tokens" | "inputTokens" | "outputTokens" | "cachedTokens">): Cost {
  const c = costOf(prices, model, usage);
  if (c === null) into.unpricedTokens += usage.tokens;
  else into.cost += c;
  return into;
}

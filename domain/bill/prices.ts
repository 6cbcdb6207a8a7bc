// The price map: what a million tokens of each model cost (input, output, cached input), parsed from
// QUORUM_PRICES (JSON; domain/config.ts reads it), so the bill can show money beside tokens. A model without
// a price costs null.
import { z } from "zod";

const price = z.strictObject({
  /** Per million input tokens that were not served from the cache. */
  input: z.number().min(0),
  output: z.number().min(0),
  /** Per million cached input tokens; a share of the input price when absent (cachedRateOf). */
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

/** The price map the environment's QUORUM_PRICES and QUORUM_CURRENCY describe; a malformed map is reported, never fatal. */
export function priceConfig(env: Readonly<Record<string, string | undefined>>): PriceConfig {
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

/**
 * The tokens a cost is computed from: a bill line's, or a run's. Named here rather than taken from the
 * bill's fold so that this module imports nothing of ours: domain/config.ts parses prices with it.
 */
export interface TokenUsage {
  tokens: number;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
}

export function priceOf(prices: PriceMap, model: string): Price | null {
  return prices[model] ?? prices["*"] ?? null;
}

/**
 * What a cached input token costs, per million: the price's own `cachedInput`, else a share of its input price
 * as the vendors bill cache reads — a tenth for claude-* models, half for every other. Cache writes are not
 * cached tokens: they cost as input (some vendors bill them at 1.25×; set a model's price to include that if it
 * matters). Which vendor serves which model is agents/model's to know; a debit names only the model.
 */
export const CACHED_SHARE = { claude: 0.1, other: 0.5 } as const;
export function cachedRateOf(price: Price, model: string): number {
  return price.cachedInput ?? price.input * (/^claude/i.test(model) ? CACHED_SHARE.claude : CACHED_SHARE.other);
}

/** The cost of one model's usage (and of its cached tokens alone), or null when the model has no price. */
export function costParts(prices: PriceMap, model: string, usage: Pick<TokenUsage, "inputTokens" | "outputTokens" | "cachedTokens">): { cost: number; cachedCost: number } | null {
  const p = priceOf(prices, model);
  if (!p) return null;
  const cached = Math.min(usage.cachedTokens, usage.inputTokens);
  const fresh = usage.inputTokens - cached;
  const cachedCost = (cached * cachedRateOf(p, model)) / 1_000_000;
  return { cost: (fresh * p.input + usage.outputTokens * p.output) / 1_000_000 + cachedCost, cachedCost };
}

export function costOf(prices: PriceMap, model: string, usage: Pick<TokenUsage, "inputTokens" | "outputTokens" | "cachedTokens">): number | null {
  return costParts(prices, model, usage)?.cost ?? null;
}

/**
 * The model the scripted client names: no model was called and its tokens are estimates. They still count
 * against budgets (so a scripted flight exercises them), but every total shows them apart as simulated.
 */
export const SIMULATED_MODEL = "scripted";

/**
 * Money beside tokens: the cost of what has a price (of it, what the cached tokens cost), how many tokens
 * have none, and how many of the tokens were simulated (scripted runs, never billed by anyone).
 */
export interface Cost {
  cost: number;
  cachedCost: number;
  unpricedTokens: number;
  simulatedTokens: number;
}

export const noCost = (): Cost => ({ cost: 0, cachedCost: 0, unpricedTokens: 0, simulatedTokens: 0 });

export function addCost(into: Cost, prices: PriceMap, model: string, usage: TokenUsage): Cost {
  if (model === SIMULATED_MODEL) into.simulatedTokens += usage.tokens;
  const c = costParts(prices, model, usage);
  if (c === null) into.unpricedTokens += usage.tokens;
  else {
    into.cost += c.cost;
    into.cachedCost += c.cachedCost;
  }
  return into;
}

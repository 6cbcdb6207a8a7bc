// GET /api/bill: tokens and money per agent and model, every budget with what is left, and the newest
// tasks and runs — read from the snapshot plus the unsettled tail, never from anything but the journal.
import { z } from "zod";
import type { Db } from "../../db/client";
import { hubAllowance, type HubAllowance } from "../flights/hub-allowance";
import { agentBills, type AgentBill } from "./agent-spend";
import { sumViews, type BudgetView, type LineView } from "./line-views";
import { cachedRateOf, priceOf, type Price, type PriceConfig } from "./prices";
import { readBillSnapshot } from "./read-snapshot";
import { runsPage, tasksPage, type BillPage, type RunBill, type TaskBill } from "./recent";

export interface BillView {
  asOf: {
    /** The last event the snapshot has folded, and how many bill events it holds. */
    snapshotThrough: number;
    snapshotEvents: number;
    /** Bill events committed past it, folded for this answer only. */
    tailEvents: number;
  };
  currency: string;
  prices: Record<string, Price>;
  pricesProblem: string | null;
  total: LineView;
  agents: AgentBill[];
  /** `cachedRate`: what a cached input token of the model is billed at, per million (domain/bill/prices.ts). */
  models: (LineView & { model: string; price: Price | null; cachedRate: number | null })[];
  budgets: BudgetView[];
  /** The hub's allowance: the open flights' (domain/flights/hub-allowance.ts). */
  hub: HubAllowance;
  tasks: BillPage<TaskBill>;
  runs: BillPage<RunBill>;
}

export const billQuery = z.strictObject({
  /** How many of the newest tasks and runs to include (the rest: /api/bill/tasks, /api/bill/runs). */
  limit: z.coerce.number().int().min(1).max(200).optional(),
});

export async function readBill(db: Db, config: PriceConfig, options: z.infer<typeof billQuery> = {}): Promise<BillView> {
  return readBillSnapshot(db, async (r) => {
    // Sent together on the transaction's connection: pipelined, one round trip's wait instead of three.
    const [{ agents, budgets, models }, tasks, runs] = await Promise.all([
      agentBills(r, config.prices),
      tasksPage(r, config.prices, { limit: options.limit }),
      runsPage(r, config.prices, { limit: options.limit }),
    ]);
    const hub = await hubAllowance(r.tx, budgets);
    return {
      asOf: { snapshotThrough: r.at.throughId, snapshotEvents: r.at.folded, tailEvents: r.tail.events },
      currency: config.currency,
      prices: config.prices,
      pricesProblem: config.problem,
      total: sumViews(models.values()),
      agents,
      models: [...models]
        .map(([model, line]) => {
          const price = priceOf(config.prices, model);
          return { ...line, model, price, cachedRate: price ? cachedRateOf(price, model) : null };
        })
        .sort((a, b) => b.tokens - a.tokens || a.model.localeCompare(b.model)),
      budgets,
      hub,
      tasks,
      runs,
    };
  });
}

// The hub's allowance, one definition for the top strip, the Bill and the API: what the flights still open
// (not merged or closed) were given, and what they spent of it. A flight that ends leaves it, so it does not
// grow with every flight ever flown; an agent's own allowance, for work outside flights, stays the agent's.
import { eq, isNotNull } from "drizzle-orm";
import { flights, tasks } from "../../db/schema";
import type { Executor } from "../../db/client";
import { FINISHED_STAGES, stageOf } from "./stage";

export interface HubAllowance {
  /** Flights not merged or closed. */
  openFlights: number;
  allowance: number;
  spent: number;
  /** Never below 0, as every budget line shows it. */
  left: number;
}

/** Sums the budgets of the open flights out of `budgets` (the same read's budget lines, so the figures agree). */
export async function hubAllowance(db: Executor, budgets: readonly { budgetId: string; allowance: number | null; spent: number }[]): Promise<HubAllowance> {
  const rows = await db
    .select({ budgetId: flights.budgetId, status: flights.status, mergedAt: flights.mergedAt, closedAt: flights.closedAt, goal: tasks.status })
    .from(flights)
    .innerJoin(tasks, eq(tasks.id, flights.goalTaskId))
    .where(isNotNull(flights.budgetId));
  const open = new Set(rows.filter((f) => !FINISHED_STAGES.includes(stageOf(f, f.goal))).map((f) => f.budgetId));
  let allowance = 0;
  let spent = 0;
  for (const b of budgets) {
    if (!open.has(b.budgetId)) continue;
    allowance += b.allowance ?? 0;
    spent += b.spent;
  }
  return { openFlights: open.size, allowance, spent, left: Math.max(0, allowance - spent) };
}

// How a flight's allowance is shared out when its plan is recorded: the one home of the split rule.
// What the flight has left (its allowance less what planning spent and what its tasks were promised) keeps a
// reserve for the runs on the goal itself (the tester's suites, a re-plan); the rest goes to the tasks in
// proportion to the weights the orchestrator gave them (create_task's `budget_weight`, 1 when absent). Each
// share is a sub-budget of the flight's, owned like it by the system principal and tied to its task
// (budgets.task_id), so every run on the task draws on it and halts alone when it runs out.
import { eq } from "drizzle-orm";
import { budgets } from "../../db/schema";
import type { Tx } from "../../db/client";
import { appendEvent } from "../journal/append";
import { childrenTotal, lockBudget } from "./allocation";
import { budgetSpent, budgetsSpentDirectly } from "./spend";

/** The part of what is left at planning kept for the goal's own runs (suites, a re-plan), not given to tasks. */
export const FLIGHT_RESERVE_SHARE = 0.2;
/** A task's weight: how big it is next to the plan's other tasks (1 to this), 1 when the orchestrator says nothing. */
export const MAX_TASK_WEIGHT = 10;
export const DEFAULT_TASK_WEIGHT = 1;

export interface TaskShare {
  taskId: string;
  budgetId: string;
  allowance: number;
}

/**
 * The split itself: `free` tokens, a reserve off the top, the rest by weight, rounded down (what rounding
 * leaves stays with the reserve). Pure, so the rule reads in one place.
 */
export function splitAllowance(free: number, weights: number[]): { reserve: number; shares: number[] } {
  const available = Math.max(0, Math.floor(free));
  if (weights.length === 0) return { reserve: available, shares: [] };
  const toTasks = Math.floor(available * (1 - FLIGHT_RESERVE_SHARE));
  const clamped = weights.map((w) => Math.min(MAX_TASK_WEIGHT, Math.max(1, Math.round(w))));
  const total = clamped.reduce((a, b) => a + b, 0);
  const shares = clamped.map((w) => Math.floor((toTasks * w) / total));
  return { reserve: available - shares.reduce((a, b) => a + b, 0), shares };
}

/** Tokens of the flight's budget neither promised to a task nor spent by the goal's own runs. */
async function freeOf(tx: Tx, flightBudgetId: string, allowance: number): Promise<number> {
  const promised = await childrenTotal(tx, flightBudgetId);
  const direct = await budgetsSpentDirectly(tx, [flightBudgetId]);
  return allowance - promised - (direct.get(flightBudgetId) ?? 0);
}

/**
 * Funds each planned task with its share of the flight's budget, journalling BudgetCreated on the task, in
 * the caller's transaction (the one that records the plan). Locks the flight's budget: two plans, or a plan
 * and a top-up, never share out the same tokens.
 */
export async function shareOutFlight(
  tx: Tx,
  flightBudgetId: string,
  planned: { taskId: string; number: number; weight?: number }[],
  actor: string,
  now: Date,
): Promise<{ reserve: number; shares: TaskShare[] }> {
  const flight = await lockBudget(tx, flightBudgetId);
  const split = splitAllowance(
    await freeOf(tx, flight.id, flight.allowance),
    planned.map((t) => t.weight ?? DEFAULT_TASK_WEIGHT),
  );
  const shares: TaskShare[] = [];
  for (const [i, task] of planned.entries()) {
    const [row] = await tx
      .insert(budgets)
      .values({ ownerId: flight.ownerId, taskId: task.taskId, parentId: flight.id, label: `task #${task.number}`, allowance: split.shares[i], createdBy: actor, createdAt: now })
      .returning();
    await appendEvent(tx, {
      kind: "BudgetCreated",
      actor,
      taskId: task.taskId,
      t: now,
      data: { budgetId: row.id, ownerId: row.ownerId, parentId: flight.id, label: row.label, allowance: row.allowance },
    });
    shares.push({ taskId: task.taskId, budgetId: row.id, allowance: row.allowance });
  }
  return { reserve: split.reserve, shares };
}

/** A cancelled task gives back what its share has not spent, so a re-plan can share it out again. */
export async function reclaimShare(tx: Tx, taskId: string, actor: string, now: Date): Promise<void> {
  const [share] = await tx.select().from(budgets).where(eq(budgets.taskId, taskId)).limit(1);
  if (!share?.parentId) return;
  await lockBudget(tx, share.parentId);
  const spent = await budgetSpent(tx, share.id);
  const allowance = Math.min(share.allowance, spent);
  if (allowance === share.allowance) return;
  await tx.update(budgets).set({ allowance }).where(eq(budgets.id, share.id));
  await appendEvent(tx, { kind: "BudgetAllowanceChanged", actor, taskId, t: now, data: { budgetId: share.id, allowance, previous: share.allowance } });
}

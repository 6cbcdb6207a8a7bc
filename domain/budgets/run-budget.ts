// Which budget a run draws on, and which it may: one home for both. A run on a task that has a budget of
// its own (a flight task's share, or a flight's goal's allowance: budgets.task_id) draws on it, whoever
// runs it — the coder holding it, the reviewer judging it, the tester on the goal; any other run draws on
// its agent's own budget. Nothing else is allowed, so a run never spends another agent's or another task's.
import { asc, eq } from "drizzle-orm";
import { budgets } from "../../db/schema";
import type { Executor } from "../../db/client";
import { fail } from "../errors";
import type { Budget } from "./allocation";

/** The budget of a task (its share of a flight, or a flight goal's allowance), or null. */
export async function budgetOfTask(db: Executor, taskId: string): Promise<Budget | null> {
  const [row] = await db.select().from(budgets).where(eq(budgets.taskId, taskId)).orderBy(asc(budgets.createdAt)).limit(1);
  return row ?? null;
}

/** The budget a run on `taskId` draws on: the task's own when it has one, else the agent's (`own`). */
export async function budgetForRun(db: Executor, taskId: string | null, own: string): Promise<string> {
  const budget = taskId ? await budgetOfTask(db, taskId) : null;
  return budget?.id ?? own;
}

/** A run may draw on its agent's own budget, or on the budget of the task it runs on; never on another's. */
export function requireRunMayDraw(budget: Budget, run: { agentId: string; taskId: string | null }): void {
  if (budget.ownerId === run.agentId) return;
  if (budget.taskId !== null && budget.taskId === run.taskId) return;
  throw fail.forbidden("run", "a run spends only its own agent's budget or the budget of the task it runs on");
}

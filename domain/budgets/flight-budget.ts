// A flight's allowance: one budget the flight's own runs draw on (planning, testing) and whose children are
// its tasks' shares. It belongs to no agent: the system principal holds it, and the runs on the flight's
// goal (budgets.task_id) spend it, whoever runs them.
import type { Tx } from "../../db/client";
import { budgets } from "../../db/schema";
import { appendEvent } from "../journal/append";
import type { Budget } from "./allocation";

/** Tokens a flight may spend when its human names no allowance: the demo several times over, small enough to notice a runaway. */
export const DEFAULT_FLIGHT_ALLOWANCE = 400_000;

export async function createFlightBudget(
  tx: Tx,
  input: { systemId: string; goalTaskId: string; number: number; allowance: number; createdBy: string | null },
  now: Date,
): Promise<Budget> {
  const [row] = await tx
    .insert(budgets)
    .values({ ownerId: input.systemId, taskId: input.goalTaskId, label: `flight ${input.number}`, allowance: input.allowance, createdBy: input.createdBy, createdAt: now })
    .returning();
  await appendEvent(tx, {
    kind: "BudgetCreated",
    actor: input.createdBy,
    taskId: input.goalTaskId,
    t: now,
    data: { budgetId: row.id, ownerId: row.ownerId, parentId: null, label: row.label, allowance: row.allowance },
  });
  return row;
}

// Changes an allowance: a top-up lets a halted run resume; it stays within the parent's and above the children's.
import { eq } from "drizzle-orm";
import { z } from "zod";
import { budgets } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { childrenTotal, lockBudget, requireFunder, requireRoomUnder, type Budget } from "./allocation";
import { isUuid } from "../ids";

/** Tokens, whole; a trillion is far past any real allowance and inside a bigint. */
export const setAllowanceInput = z.strictObject({ allowance: z.number().int().min(0).max(1e12) });
export type SetAllowanceInput = z.infer<typeof setAllowanceInput>;

export async function setAllowance(db: Db, caller: Principal | null, budgetId: string, input: SetAllowanceInput, clock: Clock): Promise<Budget> {
  const parsed = setAllowanceInput.safeParse(input);
  if (!parsed.success) throw fail.invalid("budget", "an allowance is a whole number of tokens, 0 or more", { issues: parsed.error.issues });
  const { allowance } = parsed.data;
  if (!isUuid(budgetId)) throw fail.notFound("budget", `no budget ${budgetId.slice(0, 64)}`);
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [peek] = await tx.select({ parentId: budgets.parentId }).from(budgets).where(eq(budgets.id, budgetId));
    if (!peek) throw fail.notFound("budget", `no budget ${budgetId}`);
    // Parent first, then the budget: the same order as createBudget, so the two never deadlock.
    const parent = peek.parentId ? await lockBudget(tx, peek.parentId) : null;
    const budget = await lockBudget(tx, budgetId);
    requireFunder(caller, parent);
    if (parent) requireRoomUnder(parent, await childrenTotal(tx, parent.id, budget.id), allowance);
    const promised = await childrenTotal(tx, budget.id);
    if (allowance < promised) {
      throw fail.conflict("budget", "under_children", `its sub-budgets already hold ${promised} tokens`, { promised });
    }
    const [row] = await tx.update(budgets).set({ allowance }).where(eq(budgets.id, budgetId)).returning();
    // A task's (or a flight goal's) budget: the change shows on that task's timeline too.
    await appendEvent(tx, { kind: "BudgetAllowanceChanged", actor: caller?.id ?? null, taskId: budget.taskId, t: now, data: { budgetId, allowance, previous: budget.allowance } });
    return row;
  });
}

// What creating a budget and changing an allowance share: the row lock, the children's promises and who may fund.
import { eq, sql } from "drizzle-orm";
import { budgets } from "../../db/schema";
import type { Tx } from "../../db/client";
import { fail } from "../errors";
import type { Principal } from "../principal";

export type Budget = typeof budgets.$inferSelect;

export async function lockBudget(tx: Tx, id: string): Promise<Budget> {
  const [row] = await tx.select().from(budgets).where(eq(budgets.id, id)).for("update");
  if (!row) throw fail.notFound("budget", `no budget ${id}`);
  return row;
}

/** Tokens the children of `parentId` already hold (all but `except`, when an allowance changes). */
export async function childrenTotal(tx: Tx, parentId: string, except?: string): Promise<number> {
  const [row] = await tx
    .select({ total: sql<number>`coalesce(sum(${budgets.allowance}), 0)`.mapWith(Number) })
    .from(budgets)
    .where(except ? sql`${budgets.parentId} = ${parentId} and ${budgets.id} <> ${except}` : eq(budgets.parentId, parentId));
  return row.total;
}

/** Humans and the harness (no caller) fund anyone; an agent only subdivides a budget it owns. */
export function requireFunder(caller: Principal | null, parent: Budget | null): void {
  if (caller?.kind !== "agent") return;
  if (!parent || parent.ownerId !== caller.id) throw fail.forbidden("budget", "an agent may only subdivide a budget it owns");
}

/** A parent's children never promise more than it has. */
export function requireRoomUnder(parent: Budget, promised: number, allowance: number): void {
  const available = parent.allowance - promised;
  if (allowance > available) throw fail.conflict("budget", "over_allocated", `the parent budget has ${available} tokens left to give`, { available });
}

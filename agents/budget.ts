// Budgets: an allowance per agent, subdividable; spend is always the sum of the journal's debits.
// A sub-budget's debits name it and every ancestor, so a child halts on its own share while its
// parent and siblings stand untouched, and the children of one parent never promise more than it has.
import { eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { budgets, principals } from "../db/schema";
import type { Db, Executor, Tx } from "../db/client";
import type { Clock } from "../server/clock";
import { fail } from "../server/errors";
import { appendEvent } from "../server/journal/append";
import type { Principal } from "../server/principals/types";

export type Budget = typeof budgets.$inferSelect;

export const createBudgetInput = z.strictObject({
  ownerId: z.uuid(),
  allowance: z.number().int().min(0),
  parentId: z.uuid().optional(),
  label: z.string().trim().max(200).optional(),
});
export type CreateBudgetInput = z.infer<typeof createBudgetInput>;

async function lockBudget(tx: Tx, id: string): Promise<Budget> {
  const [row] = await tx.select().from(budgets).where(eq(budgets.id, id)).for("update");
  if (!row) throw fail.notFound("budget", `no budget ${id}`);
  return row;
}

async function childrenTotal(tx: Tx, parentId: string, except?: string): Promise<number> {
  const [row] = await tx
    .select({ total: sql<number>`coalesce(sum(${budgets.allowance}), 0)`.mapWith(Number) })
    .from(budgets)
    .where(except ? sql`${budgets.parentId} = ${parentId} and ${budgets.id} <> ${except}` : eq(budgets.parentId, parentId));
  return row.total;
}

/** Humans and the harness (no caller) fund anyone; an agent only subdivides a budget it owns. */
function requireFunder(caller: Principal | null, parent: Budget | null): void {
  if (!caller || caller.kind !== "agent") return;
  if (!parent || parent.ownerId !== caller.id) throw fail.forbidden("budget", "an agent may only subdivide a budget it owns");
}

export async function createBudget(db: Db, caller: Principal | null, input: CreateBudgetInput, clock: Clock): Promise<Budget> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [owner] = await tx.select().from(principals).where(eq(principals.id, input.ownerId));
    if (!owner) throw fail.notFound("budget", `no principal ${input.ownerId} to fund`);
    if (owner.kind !== "agent") throw fail.invalid("budget", "budgets fund agents");
    // Locking the parent serialises its subdivision: two children cannot both take its last tokens.
    const parent = input.parentId ? await lockBudget(tx, input.parentId) : null;
    requireFunder(caller, parent);
    if (parent) {
      const available = parent.allowance - (await childrenTotal(tx, parent.id));
      if (input.allowance > available) {
        throw fail.conflict("budget", "over_allocated", `the parent budget has ${available} tokens left to give`, { available });
      }
    }
    const [row] = await tx
      .insert(budgets)
      .values({ ownerId: owner.id, parentId: parent?.id ?? null, label: input.label ?? "", allowance: input.allowance, createdBy: caller?.id ?? null, createdAt: now })
      .returning();
    await appendEvent(tx, {
      kind: "BudgetCreated",
      actor: caller?.id ?? null,
      t: now,
      data: { budgetId: row.id, ownerId: row.ownerId, parentId: row.parentId, label: row.label, allowance: row.allowance },
    });
    return row;
  });
}

/** Raises (a top-up lets a halted run resume) or lowers an allowance, within the parent's and above the children's. */
export async function setAllowance(db: Db, caller: Principal | null, budgetId: string, allowance: number, clock: Clock): Promise<Budget> {
  if (!Number.isInteger(allowance) || allowance < 0) throw fail.invalid("budget", "an allowance is a whole number of tokens, 0 or more");
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [peek] = await tx.select({ parentId: budgets.parentId }).from(budgets).where(eq(budgets.id, budgetId));
    if (!peek) throw fail.notFound("budget", `no budget ${budgetId}`);
    const parent = peek.parentId ? await lockBudget(tx, peek.parentId) : null;
    const budget = await lockBudget(tx, budgetId);
    requireFunder(caller, parent);
    if (parent) {
      const available = parent.allowance - (await childrenTotal(tx, parent.id, budget.id));
      if (allowance > available) throw fail.conflict("budget", "over_allocated", `the parent budget has ${available} tokens left to give`, { available });
    }
    const promised = await childrenTotal(tx, budget.id);
    if (allowance < promised) {
      throw fail.conflict("budget", "under_children", `its sub-budgets already hold ${promised} tokens`, { promised });
    }
    const [row] = await tx.update(budgets).set({ allowance }).where(eq(budgets.id, budgetId)).returning();
    await appendEvent(tx, { kind: "BudgetAllowanceChanged", actor: caller?.id ?? null, t: now, data: { budgetId, allowance, previous: budget.allowance } });
    return row;
  });
}

/** The budget and its ancestors, nearest first: what one debit names. */
export async function budgetChain(db: Executor, budgetId: string): Promise<Budget[]> {
  const rows = await db.execute<{ id: string; depth: number }>(sql`
    with recursive chain(id, parent_id, depth) as (
      select id, parent_id, 0 from budgets where id = ${budgetId}
      union all
      select b.id, b.parent_id, c.depth + 1 from budgets b join chain c on b.id = c.parent_id
    )
    select id, depth from chain order by depth`);
  const ids = [...rows].map((r) => r.id);
  if (ids.length === 0) throw fail.notFound("budget", `no budget ${budgetId}`);
  const found = await db.select().from(budgets).where(inArray(budgets.id, ids));
  return ids.map((id) => found.find((b) => b.id === id)!);
}

/** Tokens debited to a budget: its own runs and every descendant's (the debits name it). */
export async function budgetSpent(db: Executor, budgetId: string): Promise<number> {
  const [row] = await db.execute<{ spent: string }>(sql`
    select coalesce(sum((data->>'amount')::bigint), 0) as spent from events
    where kind = 'BudgetDebited' and data->'budgetIds' @> ${JSON.stringify([budgetId])}::jsonb`);
  return Number(row.spent);
}

/** The nearest budget of the chain that has no tokens left, or null: checked at every turn boundary. */
export async function exhaustedBudget(db: Executor, budgetIds: string[]): Promise<{ budgetId: string; allowance: number; budgetSpent: number } | null> {
  for (const budgetId of budgetIds) {
    const [budget] = await db.select({ allowance: budgets.allowance }).from(budgets).where(eq(budgets.id, budgetId));
    if (!budget) continue;
    const spent = await budgetSpent(db, budgetId);
    if (spent >= budget.allowance) return { budgetId, allowance: budget.allowance, budgetSpent: spent };
  }
  return null;
}

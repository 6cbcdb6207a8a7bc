// What a budget has spent and whether a run may go on: folds of the journal's BudgetDebited events.
import { eq, inArray, sql } from "drizzle-orm";
import { budgets } from "../../db/schema";
import type { Executor } from "../../db/client";
import { fail } from "../errors";
import type { Budget } from "./allocation";

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

/**
 * Tokens debited to a budget: its own runs and every descendant's (the debits name it), those of archived
 * months included (journal_archived_debits, written when they left the journal: DESIGN §4).
 */
export async function budgetSpent(db: Executor, budgetId: string): Promise<number> {
  const [row] = await db.execute<{ spent: string }>(sql`
    select (select coalesce(sum((data->>'amount')::bigint), 0) from events
            where kind = 'BudgetDebited' and data->'budgetIds' @> ${JSON.stringify([budgetId])}::jsonb)
         + (select coalesce(sum(amount), 0) from journal_archived_debits where budget_id = ${budgetId}) as spent`);
  return Number(row.spent);
}

/** Tokens debited to each budget by runs drawing on it directly (it is their debits' first budget), archived months included. */
export async function budgetsSpentDirectly(db: Executor, budgetIds: string[]): Promise<Map<string, number>> {
  if (budgetIds.length === 0) return new Map();
  const wanted = sql`array[${sql.join(
    budgetIds.map((id) => sql`${id}`),
    sql`, `,
  )}]::text[]`;
  const rows = await db.execute<{ id: string; spent: string }>(sql`
    select id, sum(spent) as spent from (
      select e.data->'budgetIds'->>0 as id, sum((e.data->>'amount')::bigint) as spent from events e
      where e.kind = 'BudgetDebited' and e.data->'budgetIds'->>0 = any(${wanted}) group by 1
      union all
      select budget_id, sum(amount) from journal_archived_debits where nearest and budget_id = any(${wanted}) group by 1
    ) as debits group by id`);
  const spent = new Map(budgetIds.map((id) => [id, 0]));
  for (const row of rows) spent.set(row.id, Number(row.spent));
  return spent;
}

export interface Exhaustion {
  budgetId: string;
  allowance: number;
  budgetSpent: number;
}

/** The nearest budget of the chain that has no tokens left, or null: checked at every turn boundary. */
export async function exhaustedBudget(db: Executor, budgetIds: string[]): Promise<Exhaustion | null> {
  for (const budgetId of budgetIds) {
    const [budget] = await db.select({ allowance: budgets.allowance }).from(budgets).where(eq(budgets.id, budgetId));
    if (!budget) continue;
    const spent = await budgetSpent(db, budgetId);
    if (spent >= budget.allowance) return { budgetId, allowance: budget.allowance, budgetSpent: spent };
  }
  return null;
}

// A budget as people read it beside a plan or on the Bill: its allowance, what its runs (and its
// sub-budgets' runs) spent, per model, what is left and whether it ran out — read for many at once.
import { inArray, sql } from "drizzle-orm";
import { budgets } from "../../db/schema";
import type { Executor } from "../../db/client";

export interface BudgetLine {
  id: string;
  allowance: number;
  spent: number;
  /** Never below 0: a run may cross the line by its last call before the turn boundary halts it. */
  remaining: number;
  /** Spent all of it: the runs that draw on it halt (BudgetExhausted) until a human tops it up. */
  exhausted: boolean;
  /** What its sub-budgets were promised (a flight's tasks' shares); 0 for a leaf. */
  promised: number;
  /** Tokens per model, the most first. */
  byModel: { model: string; tokens: number }[];
}

export async function budgetLines(db: Executor, ids: string[]): Promise<Map<string, BudgetLine>> {
  const lines = new Map<string, BudgetLine>();
  if (ids.length === 0) return lines;
  const rows = await db.select({ id: budgets.id, allowance: budgets.allowance }).from(budgets).where(inArray(budgets.id, ids));
  const children = await db
    .select({ parentId: budgets.parentId, total: sql<number>`sum(${budgets.allowance})`.mapWith(Number) })
    .from(budgets)
    .where(inArray(budgets.parentId, ids))
    .groupBy(budgets.parentId);
  // One pass over the debits naming any of them (the debits index serves the containment test), and the
  // tallies of those whose month was archived (DESIGN §4).
  const wanted = sql`array[${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )}]::uuid[]`;
  const spend = await db.execute<{ id: string; model: string | null; tokens: string }>(sql`
    select id, model, sum(tokens) as tokens from (
      select b.id::text as id, e.data->>'model' as model, sum((e.data->>'amount')::bigint) as tokens
      from unnest(${wanted}) as b(id)
      join events e on e.kind = 'BudgetDebited' and e.data->'budgetIds' @> jsonb_build_array(b.id::text)
      group by b.id, e.data->>'model'
      union all
      select a.budget_id, nullif(a.model, ''), sum(a.amount) from journal_archived_debits a
      where a.budget_id = any(${wanted}::text[])
      group by a.budget_id, a.model
    ) as debits
    group by id, model`);
  for (const row of rows) {
    const byModel = [...spend]
      .filter((s) => s.id === row.id)
      .map((s) => ({ model: s.model ?? "unknown", tokens: Number(s.tokens) }))
      .sort((a, b) => b.tokens - a.tokens);
    const spent = byModel.reduce((sum, m) => sum + m.tokens, 0);
    lines.set(row.id, {
      id: row.id,
      allowance: row.allowance,
      spent,
      remaining: Math.max(0, row.allowance - spent),
      exhausted: spent >= row.allowance,
      promised: children.find((c) => c.parentId === row.id)?.total ?? 0,
      byModel,
    });
  }
  return lines;
}

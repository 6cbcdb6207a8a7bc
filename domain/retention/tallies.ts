// What the folds over all history keep of a month that leaves the journal (DESIGN §4), written in the
// archive's transaction from the month's partition before it is detached: the tokens its debits charged each
// budget (domain/budgets/spend.ts, lines.ts), the tasks and runs it held and who claimed each task (domain/memory/lesson-task.ts, domain/tasks/reopen.ts,
// the run and task views). Review records need nothing here: their tallies already hold every verdict
// journalled (db/functions/quorum_tally_review.sql). A restore deletes them with the month's journal_archives row, in its transaction.
import { sql } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { partitionName } from "../journal/partitions";

export async function writeTallies(tx: Tx, month: string): Promise<void> {
  const part = sql.identifier(partitionName(month));
  await tx.execute(sql`
    insert into journal_archived_debits (month, budget_id, model, nearest, amount)
    select ${month}::date, b.id, coalesce(e.data->>'model', ''), b.id = e.data->'budgetIds'->>0, sum((e.data->>'amount')::bigint)
    from ${part} e cross join lateral (select distinct x as id from jsonb_array_elements_text(e.data->'budgetIds') as x) b
    where e.kind = 'BudgetDebited' and jsonb_typeof(e.data->'budgetIds') = 'array'
    group by 2, 3, 4`);
  await tx.execute(sql`
    insert into journal_archived_tasks (month, task_id, claimed_by)
    select ${month}::date, e.task_id, coalesce(array_agg(distinct e.data->>'ownerId') filter (where e.kind = 'TaskClaimed' and e.data->>'ownerId' is not null), '{}')
    from ${part} e where e.task_id is not null
    group by 2`);
  await tx.execute(sql`
    insert into journal_archived_runs (month, run_id)
    select distinct ${month}::date, e.run_id from ${part} e where e.run_id is not null`);
}

// Refreshes the bill's snapshot: folds the bill events settled since its last position, in commit-safe
// order (tx_id, id), and adds the fold to the snapshot's rows. Idempotent and concurrent-safe; droppable
// while no month of the journal is archived (an archive leaves only once the snapshot has folded it).
import { eq, sql } from "drizzle-orm";
import { billBudgets, billBuckets, billLines, billRuns, billSnapshot, journalArchives } from "../../db/schema";
import type { Db, Executor, Tx } from "../../db/client";
import { BILL_KINDS, foldBill, type BillDelta } from "./bill-fold";
import type { JournalRecord } from "../journal/load";

/** One refresher at a time; the others wait, then find little or nothing left to fold. */
const LOCK = sql`select pg_advisory_xact_lock(hashtext('quorum:bill-snapshot'))`;
const KINDS = sql.join(
  BILL_KINDS.map((k) => sql`${k}`),
  sql`, `,
);

export interface SnapshotPosition {
  throughTx: number;
  throughId: number;
  folded: number;
}

export interface BillEventRow extends JournalRecord {
  tx: string;
}

/** Bill events after a position, in commit-safe order; `settled` keeps only those no later commit can precede. */
export async function billEventsAfter(db: Executor, at: SnapshotPosition, options: { settled: boolean; limit?: number }): Promise<BillEventRow[]> {
  const rows = await db.execute<{
    id: number;
    t: Date;
    kind: string;
    actor: string | null;
    run_id: string | null;
    task_id: string | null;
    turn: number | null;
    data: unknown;
    tx: string;
  }>(sql`
    select id, t, kind, actor, run_id, task_id, turn,
      -- Only what the fold reads: a run's configuration can be large, and parsing it would be most of the work.
      case when kind = 'RunStarted' then '{}'::jsonb
           when kind in ('AgentFinished', 'BudgetExhausted', 'RunStopped') then jsonb_build_object('result', jsonb_build_object('status', data->'result'->'status'))
           else data end as data,
      tx_id::text as tx from events
    where kind in (${KINDS})
      ${options.settled ? sql`and tx_id < quorum_settle_horizon()` : sql``}
      and (tx_id, id) > (${String(at.throughTx)}::xid8, ${at.throughId}::bigint)
    order by tx_id, id
    ${options.limit ? sql`limit ${options.limit}` : sql``}`);
  return [...rows].map((r) => ({ id: r.id, t: r.t, kind: r.kind, actor: r.actor, runId: r.run_id, taskId: r.task_id, turn: r.turn, data: r.data, tx: r.tx }));
}

export async function snapshotPosition(db: Executor): Promise<SnapshotPosition> {
  const [row] = await db.select().from(billSnapshot).where(eq(billSnapshot.id, 1));
  return row ? { throughTx: row.throughTx, throughId: row.throughId, folded: row.folded } : { throughTx: 0, throughId: 0, folded: 0 };
}

/**
 * Upserts rows handed over as one JSON document (jsonb_to_recordset): one parameter however many rows,
 * which is what keeps a refresh's writes cheap. `columns` are [name, SQL type]; `set` the conflict rule.
 */
async function upsert(tx: Tx, table: string, columns: [string, string][], conflict: string, set: string, rows: object[]): Promise<void> {
  if (rows.length === 0) return;
  const names = columns.map(([name]) => name).join(", ");
  const record = columns.map(([name, type]) => `${name} ${type}`).join(", ");
  await tx.execute(sql`insert into ${sql.raw(table)} (${sql.raw(names)})
    select ${sql.raw(names)} from jsonb_to_recordset(${JSON.stringify(rows, snake)}::jsonb) as x(${sql.raw(record)})
    on conflict (${sql.raw(conflict)}) do update set ${sql.raw(set)}`);
}

/** Serialises camelCase keys as the snake_case columns. */
function snake(this: unknown, _key: string, value: unknown): unknown {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v]));
  }
  return value;
}

const SUMS = ["tokens", "input_tokens", "output_tokens", "cached_tokens"];
/** What a line counts beside the sums a minute's bucket keeps too. */
const COUNTS = ["calls", "estimated_calls", "self_reported_tokens", "self_reported_calls"];
const added = (table: string, columns: string[]) => columns.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(", ");

/** Adds a delta to the snapshot's rows: sums add, the later end of a run or allowance of a budget wins. */
export async function persistDelta(tx: Tx, delta: BillDelta): Promise<void> {
  await upsert(
    tx,
    "bill_lines",
    [["scope", "text"], ["key", "text"], ["model", "text"], ...[...SUMS, ...COUNTS, "first_event_id", "last_event_id"].map((c): [string, string] => [c, "bigint"])],
    "scope, key, model",
    `${added("bill_lines", [...SUMS, ...COUNTS])}, first_event_id = least(bill_lines.first_event_id, excluded.first_event_id), last_event_id = greatest(bill_lines.last_event_id, excluded.last_event_id)`,
    [...delta.lines.values()],
  );
  await upsert(
    tx,
    "bill_runs",
    [
      ["run_id", "text"],
      ["agent_id", "uuid"],
      ["task_id", "uuid"],
      ["status", "text"],
      ["started_at", "timestamptz"],
      ["first_event_id", "bigint"],
      ["last_event_id", "bigint"],
    ],
    "run_id",
    `agent_id = coalesce(bill_runs.agent_id, excluded.agent_id), task_id = coalesce(bill_runs.task_id, excluded.task_id),
     status = coalesce(excluded.status, bill_runs.status), started_at = coalesce(bill_runs.started_at, excluded.started_at), first_event_id = least(bill_runs.first_event_id, excluded.first_event_id),
     last_event_id = greatest(bill_runs.last_event_id, excluded.last_event_id)`,
    [...delta.runs.values()],
  );
  await upsert(
    tx,
    "bill_budgets",
    [
      ["budget_id", "text"],
      ["created", "boolean"],
      ["owner_id", "text"],
      ["parent_id", "text"],
      ["label", "text"],
      ["allowance", "bigint"],
      ["spent", "bigint"],
      ["first_event_id", "bigint"],
    ],
    "budget_id",
    `created = bill_budgets.created or excluded.created,
     owner_id = case when excluded.created then excluded.owner_id else bill_budgets.owner_id end,
     parent_id = case when excluded.created then excluded.parent_id else bill_budgets.parent_id end,
     label = case when excluded.created then excluded.label else bill_budgets.label end,
     allowance = coalesce(excluded.allowance, bill_budgets.allowance), spent = bill_budgets.spent + excluded.spent,
     first_event_id = least(bill_budgets.first_event_id, excluded.first_event_id)`,
    [...delta.budgets.values()],
  );
  await upsert(
    tx,
    "bill_buckets",
    [["minute", "timestamptz"], ["agent_id", "text"], ["model", "text"], ...SUMS.map((c): [string, string] => [c, "bigint"])],
    "minute, agent_id, model",
    added("bill_buckets", SUMS),
    [...delta.buckets.values()],
  );
}

/**
 * Folds every settled bill event not yet in the snapshot, `batch` events per transaction, and returns
 * how many it folded. Only settled events are folded, so no later commit can land behind the position.
 */
export async function refreshBillSnapshot(db: Db, batch = 10_000): Promise<number> {
  let total = 0;
  for (;;) {
    const folded = await db.transaction(async (tx) => {
      // The position is read only after the lock is granted (not pipelined with it: two refreshers must not fold one tail twice).
      await tx.execute(LOCK);
      const at = await snapshotPosition(tx);
      const rows = await billEventsAfter(tx, at, { settled: true, limit: batch });
      if (rows.length === 0) return 0;
      await persistDelta(tx, foldBill(rows));
      const last = rows[rows.length - 1];
      await tx
        .insert(billSnapshot)
        .values({ id: 1, throughTx: Number(last.tx), throughId: last.id, folded: at.folded + rows.length, refreshedAt: new Date() })
        .onConflictDoUpdate({ target: billSnapshot.id, set: { throughTx: Number(last.tx), throughId: last.id, folded: at.folded + rows.length, refreshedAt: new Date() } });
      return rows.length;
    });
    total += folded;
    if (folded < batch) return total;
  }
}

/**
 * Drops the snapshot; the next refresh folds the journal from its start. Refused once a month of the journal
 * is archived: the snapshot then holds history the journal no longer has (DESIGN §4), and `quorum journal
 * restore` brings it back first.
 */
export async function resetBillSnapshot(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(LOCK);
    const [archived] = await tx.select({ month: journalArchives.month }).from(journalArchives).limit(1);
    if (archived) throw new Error(`the bill's snapshot holds archived months of the journal (${archived.month.slice(0, 7)}…): restore them before rebuilding it from the journal`);
    for (const table of [billLines, billRuns, billBudgets, billBuckets]) await tx.delete(table);
    await tx
      .insert(billSnapshot)
      .values({ id: 1 })
      .onConflictDoUpdate({ target: billSnapshot.id, set: { throughTx: 0, throughId: 0, folded: 0, refreshedAt: new Date() } });
  });
}

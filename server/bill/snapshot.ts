// Refreshes the bill's snapshot: folds the bill events settled since its last position, in commit-safe
// order (tx_id, id), and adds the fold to the snapshot's rows. Idempotent, concurrent-safe, droppable.
import { eq, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { billBudgets, billBuckets, billLines, billRuns, billSnapshot } from "../../db/schema";
import type { Db, Executor, Tx } from "../../db/client";
import { BILL_KINDS, foldBill, type BillDelta } from "../journal/views/bill-fold";
import type { JournalRecord } from "../journal/views/run-events";

/** One refresher at a time; the others wait, then find little or nothing left to fold. */
const LOCK = sql`select pg_advisory_xact_lock(hashtext('quorum:bill-snapshot'))`;
const KINDS = sql.join(BILL_KINDS.map((k) => sql`${k}`), sql`, `);
const CHUNK = 2_000;

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
  const rows = await db.execute<{ id: number; t: Date; kind: string; actor: string | null; run_id: string | null; task_id: string | null; turn: number | null; data: unknown; tx: string }>(sql`
    select id, t, kind, actor, run_id, task_id, turn, data, tx_id::text as tx from events
    where kind in (${KINDS})
      ${options.settled ? sql`and tx_id < pg_snapshot_xmin(pg_current_snapshot())` : sql``}
      and (tx_id, id) > (${String(at.throughTx)}::xid8, ${at.throughId}::bigint)
    order by tx_id, id
    ${options.limit ? sql`limit ${options.limit}` : sql``}`);
  return [...rows].map((r) => ({ id: r.id, t: r.t, kind: r.kind, actor: r.actor, runId: r.run_id, taskId: r.task_id, turn: r.turn, data: r.data, tx: r.tx }));
}

export async function snapshotPosition(db: Executor): Promise<SnapshotPosition> {
  const [row] = await db.select().from(billSnapshot).where(eq(billSnapshot.id, 1));
  return row ? { throughTx: row.throughTx, throughId: row.throughId, folded: row.folded } : { throughTx: 0, throughId: 0, folded: 0 };
}

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/** The stored value plus the incoming one (`excluded`), for an upsert that adds. */
const plus = (column: AnyPgColumn) => sql`${column} + excluded.${sql.identifier(column.name)}`;

/** Adds a delta to the snapshot's rows: sums add, the later end of a run or allowance of a budget wins. */
export async function persistDelta(tx: Tx, delta: BillDelta): Promise<void> {
  for (const rows of chunks([...delta.lines.values()])) {
    await tx
      .insert(billLines)
      .values(rows)
      .onConflictDoUpdate({
        target: [billLines.scope, billLines.key, billLines.model],
        set: {
          tokens: plus(billLines.tokens),
          inputTokens: plus(billLines.inputTokens),
          outputTokens: plus(billLines.outputTokens),
          cachedTokens: plus(billLines.cachedTokens),
          calls: plus(billLines.calls),
          estimatedCalls: plus(billLines.estimatedCalls),
          firstEventId: sql`least(${billLines.firstEventId}, excluded.first_event_id)`,
          lastEventId: sql`greatest(${billLines.lastEventId}, excluded.last_event_id)`,
        },
      });
  }
  for (const rows of chunks([...delta.runs.values()])) {
    await tx
      .insert(billRuns)
      .values(rows)
      .onConflictDoUpdate({
        target: billRuns.runId,
        set: {
          agentId: sql`coalesce(${billRuns.agentId}, excluded.agent_id)`,
          taskId: sql`coalesce(${billRuns.taskId}, excluded.task_id)`,
          status: sql`coalesce(excluded.status, ${billRuns.status})`,
          firstEventId: sql`least(${billRuns.firstEventId}, excluded.first_event_id)`,
          lastEventId: sql`greatest(${billRuns.lastEventId}, excluded.last_event_id)`,
        },
      });
  }
  for (const rows of chunks([...delta.budgets.values()])) {
    await tx
      .insert(billBudgets)
      .values(rows)
      .onConflictDoUpdate({
        target: billBudgets.budgetId,
        set: {
          created: sql`${billBudgets.created} or excluded.created`,
          ownerId: sql`case when excluded.created then excluded.owner_id else ${billBudgets.ownerId} end`,
          parentId: sql`case when excluded.created then excluded.parent_id else ${billBudgets.parentId} end`,
          label: sql`case when excluded.created then excluded.label else ${billBudgets.label} end`,
          allowance: sql`coalesce(excluded.allowance, ${billBudgets.allowance})`,
          spent: plus(billBudgets.spent),
          firstEventId: sql`least(${billBudgets.firstEventId}, excluded.first_event_id)`,
        },
      });
  }
  for (const rows of chunks([...delta.buckets.values()])) {
    await tx
      .insert(billBuckets)
      .values(rows.map((b) => ({ ...b, minute: new Date(b.minute) })))
      .onConflictDoUpdate({
        target: [billBuckets.minute, billBuckets.agentId, billBuckets.model],
        set: { tokens: plus(billBuckets.tokens), inputTokens: plus(billBuckets.inputTokens), outputTokens: plus(billBuckets.outputTokens), cachedTokens: plus(billBuckets.cachedTokens) },
      });
  }
}

/**
 * Folds every settled bill event not yet in the snapshot, `batch` events per transaction, and returns
 * how many it folded. Only settled events are folded, so no later commit can land behind the position.
 */
export async function refreshBillSnapshot(db: Db, batch = 10_000): Promise<number> {
  let total = 0;
  for (;;) {
    const folded = await db.transaction(async (tx) => {
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

/** Drops the snapshot; the next refresh folds the journal from its start. */
export async function resetBillSnapshot(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(LOCK);
    for (const table of [billLines, billRuns, billBudgets, billBuckets]) await tx.delete(table);
    await tx
      .insert(billSnapshot)
      .values({ id: 1 })
      .onConflictDoUpdate({ target: billSnapshot.id, set: { throughTx: 0, throughId: 0, folded: 0, refreshedAt: new Date() } });
  });
}

// Reads the journal with cursor pagination; never offset scans.
import { and, asc, desc, eq, gt, lt, sql, type SQL } from "drizzle-orm";
import { events, principals } from "../../db/schema";
import type { Executor } from "../../db/client";

export interface JournalQuery {
  /** Ascending from this id (catch-up); without it, newest first. */
  after?: number;
  /** Newest first, older than this id (the next page of the explorer). */
  before?: number;
  kind?: string;
  actor?: string;
  task?: string;
  run?: string;
  limit?: number;
  /**
   * Ascending reads normally stop below the oldest transaction still in flight (cluster-wide), so
   * a page never skips an event that commits later with a smaller id. A reader that is already
   * LISTENing (the SSE stream) hears late commits anyway and may read right up to the last commit.
   */
  unsettled?: boolean;
}

export interface JournalEntry {
  id: number;
  v: number;
  t: string;
  kind: string;
  actor: string | null;
  actorName: string | null;
  runId: string | null;
  taskId: string | null;
  turn: number | null;
  data: unknown;
}

export async function listJournal(db: Executor, query: JournalQuery): Promise<{ items: JournalEntry[]; next?: number }> {
  const limit = Math.min(Math.max(query.limit ?? 100, 1), 500);
  const ascending = query.after !== undefined;
  const where: SQL[] = [];
  if (ascending && !query.unsettled) where.push(sql`${events}.tx_id < pg_snapshot_xmin(pg_current_snapshot())`);
  if (query.after !== undefined) where.push(gt(events.id, query.after));
  if (query.before !== undefined) where.push(lt(events.id, query.before));
  if (query.kind) where.push(eq(events.kind, query.kind));
  if (query.actor) where.push(eq(events.actor, query.actor));
  if (query.task) where.push(eq(events.taskId, query.task));
  if (query.run) where.push(eq(events.runId, query.run));
  const rows = await db
    .select({
      id: events.id,
      v: events.v,
      t: events.t,
      kind: events.kind,
      actor: events.actor,
      actorName: principals.name,
      runId: events.runId,
      taskId: events.taskId,
      turn: events.turn,
      data: events.data,
    })
    .from(events)
    .leftJoin(principals, eq(principals.id, events.actor))
    .where(and(...where))
    .orderBy(ascending ? asc(events.id) : desc(events.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit).map((row) => ({ ...row, t: row.t.toISOString() }));
  return rows.length > limit ? { items: page, next: page[page.length - 1].id } : { items: page };
}

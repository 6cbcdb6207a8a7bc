// Reads the journal with cursor pagination (never offset scans), filtered, and searched in full text.
import { and, asc, desc, eq, inArray, lt, notInArray, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { events, principals } from "../../db/schema";
import type { Executor } from "../../db/client";
import type { Page } from "../page";
import type { Principal } from "../principal";
import { indexJournalSearch, readSearchWatermark, requireReadableSearch, searchIndexed, searchTail } from "./search-index";
import { SYSTEM_KINDS } from "./kinds";
import { eventsVisibleTo } from "./visibility";

/** GET /api/journal's query: the filters of JournalQuery a surface may pass. */
export const listJournalQuery = z.strictObject({
  after: z.coerce.number().int().min(0).optional(),
  before: z.coerce.number().int().min(1).optional(),
  /** One kind, or several comma-separated (the explorer's multi-select). */
  kind: z.string().max(4000).optional(),
  actor: z.uuid().optional(),
  task: z.uuid().optional(),
  run: z.string().max(128).optional(),
  /** Full-text search (web-search syntax: words, "a phrase", -not) over the events that carry text (not the bookkeeping kinds of migration 0024). */
  q: z.string().trim().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
  /** `hide`: leave out the plumbing (SYSTEM_KINDS in ./kinds.ts) unless `kind` names it; `show`, the default: every kind. */
  system: z.enum(["show", "hide"]).optional(),
});

export interface JournalQuery {
  /** Ascending from this id (catch-up); without it, newest first. */
  after?: number;
  /** Newest first, older than this id (the next page of the explorer). */
  before?: number;
  kind?: string;
  actor?: string;
  task?: string;
  run?: string;
  /** Full-text search over the payload's strings (message bodies, observations, summaries…), web-search syntax. */
  q?: string;
  limit?: number;
  /** `hide`: leave out the plumbing (SYSTEM_KINDS) unless `kind` names kinds. */
  system?: "show" | "hide";
  /**
   * Who is reading: the events about direct messages it is not party to are left out
   * (domain/journal/visibility.ts). Every surface passes its caller; only rules and tests read unscoped.
   */
  viewer?: Principal;
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

/**
 * The place of event `id` in commit-safe order: its transaction, or for an id that is no event (0, a
 * rolled-back id) the transaction of the nearest event below it.
 */
function cursorTx(id: number): SQL {
  return sql`coalesce((select c.tx_id from events c where c.id = ${id}), (select c.tx_id from events c where c.id < ${id} order by c.id desc limit 1), '0'::xid8)`;
}

/** An event with its actor's name: select it from `events` left-joined with `principals` on the actor. */
export const eventColumns = {
  id: events.id,
  t: events.t,
  kind: events.kind,
  actor: events.actor,
  actorName: principals.name,
  runId: events.runId,
  taskId: events.taskId,
  turn: events.turn,
  data: events.data,
};

export async function listJournal(db: Executor, query: JournalQuery): Promise<Page<JournalEntry>> {
  const limit = Math.min(Math.max(query.limit ?? 100, 1), 500);
  const ascending = query.after !== undefined;
  const where: SQL[] = [];
  // Ascending reads are commit-safe: only events whose transaction is older than the oldest one still in
  // flight in this database (quorum_settle_horizon, migration 0017), in (tx_id, id) order, continuing after
  // the cursor event's place in that order. Anything committed later has a larger tx_id, so a reader
  // paging with `after` sees every event exactly once even when a smaller id commits after a larger one
  // (ids alone cannot promise that); the live stream sends events in the same order (./stream.ts).
  if (ascending) {
    where.push(sql`${events}.tx_id < quorum_settle_horizon()`);
    where.push(sql`(${events}.tx_id, ${events.id}) > (${cursorTx(query.after!)}, ${query.after}::bigint)`);
  }
  if (query.before !== undefined) where.push(lt(events.id, query.before));
  const kinds = (query.kind ?? "")
    .split(",")
    .map((k) => k.trim())
    .filter(Boolean);
  if (kinds.length === 1) where.push(eq(events.kind, kinds[0]));
  else if (kinds.length > 1) where.push(inArray(events.kind, kinds));
  else if (query.system === "hide") where.push(notInArray(events.kind, [...SYSTEM_KINDS]));
  if (query.actor) where.push(eq(events.actor, query.actor));
  if (query.task) where.push(eq(events.taskId, query.task));
  if (query.run) where.push(eq(events.runId, query.run));
  const visible = query.viewer ? eventsVisibleTo(query.viewer) : undefined;
  if (visible) where.push(visible);
  const read = (search?: SQL) =>
    db
      .select({ ...eventColumns, v: events.v })
      .from(events)
      .leftJoin(principals, eq(principals.id, events.actor))
      .where(and(...where, search))
      .orderBy(...(ascending ? [sql`${events}.tx_id`, asc(events.id)] : [desc(events.id)]))
      .limit(limit + 1);
  let rows: Awaited<ReturnType<typeof read>>;
  if (query.q) {
    // Search looks in the events that carry text (migration 0024's predicate), through the index written
    // after the fact (migration 0027): the tail is indexed first, so what is left to read directly is short.
    await requireReadableSearch(db, query.q);
    await indexJournalSearch(db);
    const mark = await readSearchWatermark(db);
    const [indexed, tail] = await Promise.all([read(searchIndexed(query.q, mark)), read(searchTail(query.q, mark))]);
    // Ascending, every indexed event precedes the tail in (tx_id, id) order; newest first is by id alone.
    const merged = [...indexed, ...tail];
    rows = (ascending ? merged : merged.sort((a, b) => b.id - a.id)).slice(0, limit + 1);
  } else {
    rows = await read();
  }
  const page = rows.slice(0, limit).map((row) => ({ ...row, t: row.t.toISOString() }));
  return rows.length > limit ? { items: page, next: page[page.length - 1].id } : { items: page };
}

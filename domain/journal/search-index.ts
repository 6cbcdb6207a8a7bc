// The journal's search index, kept off the write path (migration 0027): writers journal their events and
// return; this indexes the settled tail in batches, from the "search" sweeper and before every search.
import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { fail } from "../errors";

/** Events read per call: one batch is one statement holding the indexer's row lock. */
export const SEARCH_INDEX_BATCH = 2000;

/**
 * Indexes the journal's settled tail until it is caught up (or `maxBatches` batches were read). Another
 * instance already indexing makes this return at once: a search then reads the unindexed tail directly.
 * Returns the number of events read.
 */
export async function indexJournalSearch(db: Executor, maxBatches = 50): Promise<number> {
  let total = 0;
  for (let i = 0; i < maxBatches; i++) {
    const [row] = await db.execute<{ n: number }>(sql`select quorum_index_journal_search(${SEARCH_INDEX_BATCH}::int) as n`);
    total += row.n;
    if (row.n < SEARCH_INDEX_BATCH) break;
  }
  return total;
}

/** How far event_search reaches: every searchable event at or before (txId, eventId) in (tx_id, id) order is in it. */
export interface SearchWatermark {
  txId: string;
  eventId: number;
}

/** Reads the watermark (a plain read: an indexer holding its row lock does not block it). */
export async function readSearchWatermark(db: Executor): Promise<SearchWatermark> {
  const [row] = await db.execute<{ tx_id: string; event_id: string }>(sql`select tx_id::text, event_id from event_search_watermark`);
  return { txId: row.tx_id, eventId: Number(row.event_id) };
}

/**
 * A search Postgres cannot read (200 hyphens overflow its tsquery stack, an internal error) is the
 * client's mistake: 400 with Postgres's reason, asked before the two reads below.
 */
export async function requireReadableSearch(db: Executor, q: string): Promise<void> {
  try {
    await db.execute(sql`select websearch_to_tsquery('english', ${q})`);
  } catch (error) {
    throw fail.invalid("journal", `the search cannot be read: ${(error as Error).message}`, { issues: [{ path: ["q"], message: (error as Error).message }] }, error);
  }
}

/**
 * A search is two reads, because one plan cannot serve both: the events found in event_search (a common
 * word: walk the journal and probe the index; a rare one: the GIN index first), and the events past the
 * watermark, whose documents are computed on the spot (a range of events_settled_idx, short because every
 * search indexes the tail first). The watermark is passed as values: read from its table inside the query,
 * the planner could not bound the tail and computed the document of every event in the journal
 * (bench/results/notebook.md).
 */
export function searchIndexed(q: string, mark: SearchWatermark) {
  // Bounded by the watermark as read, which the indexer may have passed since: the two reads never overlap.
  return sql`(events.tx_id, events.id) <= (${mark.txId}::xid8, ${mark.eventId}::bigint) and quorum_event_searchable(events.kind)
    and events.id in (select s.event_id from event_search s where s.document @@ websearch_to_tsquery('english', ${q}))`;
}

export function searchTail(q: string, mark: SearchWatermark) {
  return sql`(events.tx_id, events.id) > (${mark.txId}::xid8, ${mark.eventId}::bigint) and quorum_event_searchable(events.kind)
    and quorum_event_document(events.data) @@ websearch_to_tsquery('english', ${q})`;
}

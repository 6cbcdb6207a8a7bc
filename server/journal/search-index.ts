// The journal's search index, kept off the write path (migration 0027): writers journal their events and
// return; this indexes the settled tail in batches, from the "search" sweeper and before every search.
import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client";

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

/**
 * The search predicate over `events`: the events that carry text (quorum_event_searchable) and match, found
 * in event_search up to the watermark and by their documents past it, so none is missed while unindexed.
 */
export function searchMatches(q: string) {
  return sql`quorum_event_searchable(events.kind) and events.id in (
    select s.event_id from event_search s where s.document @@ websearch_to_tsquery('english', ${q})
    union all
    select t.id from events t, event_search_watermark w
    where (t.tx_id, t.id) > (w.tx_id, w.event_id) and quorum_event_searchable(t.kind)
      and quorum_event_document(t.data) @@ websearch_to_tsquery('english', ${q}))`;
}

-- The journal's search index is written after the fact, not by the writer. An expression GIN index on
-- events made every post pay for its MessageSent's document and GIN entry inside the post's transaction,
-- under the room lock: dropping it alone raised gated posting from 652–673 to 767–796 posts/s in one room
-- and from 1,103–1,314 to 1,398–1,514 in 8 rooms (8 agents, embedded PostgreSQL 18 on 2 cores,
-- 2026-11-30; the 8 writers also queued on the GIN pending list's metapage). Now event_search holds the
-- documents; quorum_index_journal_search indexes the settled tail in batches (the "search" sweeper, every
-- second, and every search before it reads), in the journal's commit-safe (tx_id, id) order, and moves a
-- watermark. A search reads event_search and computes the documents of the events past the watermark on
-- the spot, so it never misses an event, indexed yet or not (server/journal/list.ts).
CREATE TABLE "event_search" (
  "event_id" bigint PRIMARY KEY,
  "document" tsvector NOT NULL
);
--> statement-breakpoint
CREATE INDEX "event_search_document_idx" ON "event_search" USING gin ("document");
--> statement-breakpoint
-- One row: every searchable event at or before (tx_id, event_id) in (tx_id, id) order is in event_search.
CREATE TABLE "event_search_watermark" (
  "singleton" boolean PRIMARY KEY DEFAULT true CHECK ("singleton"),
  "tx_id" xid8 NOT NULL,
  "event_id" bigint NOT NULL
);
--> statement-breakpoint
INSERT INTO "event_search_watermark" ("tx_id", "event_id") VALUES ('0'::xid8, 0);
--> statement-breakpoint
CREATE FUNCTION quorum_index_journal_search(batch integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  mark event_search_watermark%ROWTYPE;
  n integer;
  last_tx xid8;
  last_id bigint;
BEGIN
  -- One indexer at a time across instances; the others find the row taken and leave it.
  SELECT * INTO mark FROM event_search_watermark FOR UPDATE SKIP LOCKED;
  IF NOT FOUND THEN
    RETURN 0;
  END IF;
  -- Only settled events (older than every transaction in flight): none can commit behind the watermark.
  WITH next AS (
    SELECT id, tx_id, kind, data FROM events
    WHERE tx_id < quorum_settle_horizon() AND (tx_id, id) > (mark.tx_id, mark.event_id)
    ORDER BY tx_id, id LIMIT batch
  ), indexed AS (
    INSERT INTO event_search (event_id, document)
    SELECT id, quorum_event_document(data) FROM next WHERE quorum_event_searchable(kind)
    ON CONFLICT (event_id) DO NOTHING
  )
  SELECT count(*)::int, (array_agg(tx_id ORDER BY tx_id DESC, id DESC))[1], (array_agg(id ORDER BY tx_id DESC, id DESC))[1]
    INTO n, last_tx, last_id FROM next;
  IF n > 0 THEN
    UPDATE event_search_watermark SET tx_id = last_tx, event_id = last_id;
  END IF;
  RETURN n;
END $$;
--> statement-breakpoint
SELECT quorum_index_journal_search(2147483647);
--> statement-breakpoint
DROP INDEX "events_search_idx";

-- Indexes the journal's settled tail for search, after the fact: up to p_limit events past the
-- watermark in commit-safe (tx_id, id) order, then moves the watermark. Called by the search sweeper each
-- second and by each search before it reads (server/journal/search-index.ts), so that the GIN entry is
-- no longer paid for inside every writer's transaction (migration 0027 has the measurements).
CREATE OR REPLACE FUNCTION public.quorum_index_journal_search(batch integer)
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
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
END $function$
;

-- The journal's full-text index holds the events that carry text, not the bookkeeping kinds whose strings
-- are only ids, timestamps, room names and fixed words (a delivery receipt, a cursor, a focus window, a
-- claim, a lease). Those kinds are the hot paths' second event: every post writes MessageDelivered, every
-- claim TaskClaimed and FocusWindowOpened. Measured 2026-11-30 (embedded PostgreSQL 18, 2 cores, 3,000 rows
-- in one transaction, two runs): MessageDelivered with its 7 recipient ids cost 0.29–0.33 ms a row with the
-- index and 0.03–0.04 ms without it; MessageSent (a 90-byte body) 0.07–0.11 ms against 0.03 ms. A document
-- that skips uuid-shaped strings saved a third (the jsonpath regex cost the rest back) and jsonb_to_tsvector
-- about a tenth, so the index leaves those kinds out instead. Their events are found by the journal's kind,
-- actor, task and run filters, which have indexes of their own. The search (server/journal/list.ts) names
-- the same predicate, so the planner can use this partial index.
CREATE FUNCTION quorum_event_searchable(kind text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT kind <> ALL (ARRAY[
    'MessageDelivered', 'CursorAdvanced', 'FocusWindowOpened', 'FocusWindowClosed', 'DigestFlushed',
    'TaskClaimed', 'LeaseRenewed', 'LeaseExpired', 'AgentKeyIssued', 'HumanSignedIn', 'SessionEnded'
  ]::text[])
$$;
--> statement-breakpoint
DROP INDEX "events_search_idx";
--> statement-breakpoint
CREATE INDEX "events_search_idx" ON "events" USING gin (quorum_event_document("data")) WHERE quorum_event_searchable("kind");

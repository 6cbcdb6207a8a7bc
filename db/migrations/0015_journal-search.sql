-- Full-text search over the journal: every string value of an event's payload (message bodies,
-- tool observations, summaries, reasons…), capped so that one huge payload can never refuse an append.
CREATE FUNCTION quorum_event_document(payload jsonb) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT to_tsvector('english'::regconfig, left(coalesce(string_agg(v #>> '{}', ' '), ''), 200000))
  FROM jsonb_path_query(payload, 'strict $.** ? (@.type() == "string")') AS v
$$;
--> statement-breakpoint
CREATE INDEX "events_search_idx" ON "events" USING gin (quorum_event_document("data"));
--> statement-breakpoint
-- Commit-safe ascending reads order by (tx_id, id): every event with tx_id below the oldest
-- transaction in flight is settled, and anything that commits later has a larger tx_id.
CREATE INDEX "events_settled_idx" ON "events" USING btree ("tx_id", "id");
--> statement-breakpoint
-- The same order restricted to the kinds the bill folds (BILL_KINDS in server/journal/views/bill-fold.ts).
CREATE INDEX "events_bill_settled_idx" ON "events" USING btree ("tx_id", "id")
  WHERE kind IN ('BudgetDebited', 'BudgetCreated', 'BudgetAllowanceChanged', 'RunStarted', 'AgentFinished', 'BudgetExhausted', 'RunStopped');
--> statement-breakpoint
INSERT INTO "bill_snapshot" ("id") VALUES (1);

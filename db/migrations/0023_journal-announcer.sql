-- Writers no longer NOTIFY. PostgreSQL serialises the commits of notifying transactions on one
-- database-wide lock held through the WAL flush, so with a NOTIFY per event 8 writers committed at about
-- one connection's rate (pgbench on this machine kind: 6,700–7,300 tps without the trigger, 720–1,150
-- with it; once per statement measured the same). Each app process now announces committed events by
-- reading the journal's tail commit-safely (server/journal/announcer.ts), below quorum_settle_horizon()
-- in (tx_id, id) order on events_settled_idx. The append-only guard (events_append_only,
-- events_no_truncate) and the webhook outbox trigger are untouched.
DROP TRIGGER IF EXISTS "events_notify" ON "events";
--> statement-breakpoint
DROP FUNCTION IF EXISTS quorum_events_notify();

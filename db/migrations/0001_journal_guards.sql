-- The writing transaction of each event, so readers can page without skipping in-flight commits.
ALTER TABLE "events" ADD COLUMN "tx_id" xid8 NOT NULL DEFAULT pg_current_xact_id();
--> statement-breakpoint
CREATE FUNCTION quorum_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the journal is append-only: % on events is refused', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON "events"
  FOR EACH ROW EXECUTE FUNCTION quorum_events_append_only();
--> statement-breakpoint
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON "events"
  FOR EACH STATEMENT EXECUTE FUNCTION quorum_events_append_only();
--> statement-breakpoint
-- Every committed event is announced on one channel; listeners get it at commit, never before.
CREATE FUNCTION quorum_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('quorum_events', json_build_object(
    'id', NEW.id, 'kind', NEW.kind, 'actor', NEW.actor,
    'taskId', NEW.task_id, 'runId', NEW.run_id,
    'room', NEW.data->>'room')::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER events_notify AFTER INSERT ON "events"
  FOR EACH ROW EXECUTE FUNCTION quorum_events_notify();
--> statement-breakpoint
INSERT INTO "rooms" ("name") VALUES ('general');
--> statement-breakpoint
INSERT INTO "principals" ("kind", "name", "role") VALUES ('system', 'quorum', 'system');

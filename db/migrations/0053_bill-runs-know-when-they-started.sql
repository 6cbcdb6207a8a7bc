-- A run on the bill says when it started (the time of its RunStarted), so the Bill can name it by its agent,
-- task and start rather than by its id. The snapshot's existing runs take it from the journal once; a run
-- whose RunStarted is archived keeps none.
ALTER TABLE "bill_runs" ADD COLUMN "started_at" timestamp with time zone;--> statement-breakpoint
UPDATE "bill_runs" SET "started_at" = "events"."t" FROM "events" WHERE "events"."kind" = 'RunStarted' AND "events"."run_id" = "bill_runs"."run_id";

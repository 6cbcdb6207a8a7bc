CREATE TABLE "diagnosis_keys" (
	"key" text PRIMARY KEY NOT NULL,
	"flight_id" uuid NOT NULL
);
--> statement-breakpoint
CREATE INDEX "diagnosis_keys_flight_idx" ON "diagnosis_keys" USING btree ("flight_id");--> statement-breakpoint
-- The findings already journalled keep their keys, so none is journalled twice.
INSERT INTO "diagnosis_keys" ("key", "flight_id")
  SELECT DISTINCT "data"->>'key', ("data"->>'flightId')::uuid FROM "events" WHERE "kind" = 'DiagnosisFound'
  ON CONFLICT DO NOTHING;

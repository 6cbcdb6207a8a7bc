CREATE TABLE "diagnosis_watermark" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"through_tx" bigint DEFAULT 0 NOT NULL,
	"through_id" bigint DEFAULT 0 NOT NULL,
	"swept_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "diagnosis_watermark_single_row_check" CHECK ("diagnosis_watermark"."id" = 1)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "events_diagnosis_key_idx" ON "events" USING btree (("data"->>'key')) WHERE "events"."kind" = 'DiagnosisFound';
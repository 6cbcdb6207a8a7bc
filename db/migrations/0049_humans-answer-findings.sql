CREATE TABLE "finding_answers" (
	"key" text PRIMARY KEY NOT NULL,
	"flight_id" uuid NOT NULL,
	"verdict" text NOT NULL,
	"note" text,
	"answered_by" uuid NOT NULL,
	"answered_at" timestamp with time zone NOT NULL,
	CONSTRAINT "finding_answers_verdict_check" CHECK ("finding_answers"."verdict" in ('acknowledged', 'not_a_failure'))
);
--> statement-breakpoint
ALTER TABLE "finding_answers" ADD CONSTRAINT "finding_answers_answered_by_principals_id_fk" FOREIGN KEY ("answered_by") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "finding_answers_flight_idx" ON "finding_answers" USING btree ("flight_id");
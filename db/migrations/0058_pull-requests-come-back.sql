CREATE TABLE "flight_proposals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"host" text NOT NULL,
	"remote" text NOT NULL,
	"issue_number" integer NOT NULL,
	"issue_url" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"state" text DEFAULT 'waiting' NOT NULL,
	"flight_id" uuid,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "flight_proposals_state_check" CHECK ("flight_proposals"."state" in ('waiting', 'started', 'dismissed'))
);
--> statement-breakpoint
CREATE TABLE "forge_deliveries" (
	"delivery_id" text PRIMARY KEY NOT NULL,
	"host" text NOT NULL,
	"event" text NOT NULL,
	"flight_id" uuid,
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pull_request_feedback" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"flight_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"forge_id" bigint NOT NULL,
	"task_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "pull_request_feedback_kind_check" CHECK ("pull_request_feedback"."kind" in ('review', 'check'))
);
--> statement-breakpoint
ALTER TABLE "flights" ADD COLUMN "pull_request_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "flights" ADD COLUMN "pull_request_checks" jsonb;--> statement-breakpoint
ALTER TABLE "flights" ADD COLUMN "draft_pull_request" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "flights" ADD COLUMN "issue_number" integer;--> statement-breakpoint
ALTER TABLE "forge_hosts" ADD COLUMN "webhook_secret" text;--> statement-breakpoint
ALTER TABLE "forge_hosts" ADD COLUMN "poll_pull_requests" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "forge_hosts" ADD COLUMN "intake_label" text;--> statement-breakpoint
ALTER TABLE "flight_proposals" ADD CONSTRAINT "flight_proposals_flight_id_flights_id_fk" FOREIGN KEY ("flight_id") REFERENCES "public"."flights"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flight_proposals" ADD CONSTRAINT "flight_proposals_decided_by_principals_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forge_deliveries" ADD CONSTRAINT "forge_deliveries_flight_id_flights_id_fk" FOREIGN KEY ("flight_id") REFERENCES "public"."flights"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pull_request_feedback" ADD CONSTRAINT "pull_request_feedback_flight_id_flights_id_fk" FOREIGN KEY ("flight_id") REFERENCES "public"."flights"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pull_request_feedback" ADD CONSTRAINT "pull_request_feedback_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "flight_proposals_issue_idx" ON "flight_proposals" USING btree ("remote","issue_number");--> statement-breakpoint
CREATE INDEX "forge_deliveries_flight_idx" ON "forge_deliveries" USING btree ("flight_id","received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "pull_request_feedback_once_idx" ON "pull_request_feedback" USING btree ("flight_id","kind","forge_id");
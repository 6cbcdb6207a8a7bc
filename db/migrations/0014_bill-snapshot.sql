CREATE TABLE "bill_buckets" (
	"minute" timestamp with time zone NOT NULL,
	"agent_id" text NOT NULL,
	"model" text NOT NULL,
	"tokens" bigint NOT NULL,
	"input_tokens" bigint NOT NULL,
	"output_tokens" bigint NOT NULL,
	"cached_tokens" bigint NOT NULL,
	CONSTRAINT "bill_buckets_minute_agent_id_model_pk" PRIMARY KEY("minute","agent_id","model")
);
--> statement-breakpoint
CREATE TABLE "bill_budgets" (
	"budget_id" text PRIMARY KEY NOT NULL,
	"created" boolean DEFAULT false NOT NULL,
	"owner_id" text,
	"parent_id" text,
	"label" text DEFAULT '' NOT NULL,
	"allowance" bigint,
	"spent" bigint NOT NULL,
	"first_event_id" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bill_lines" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"model" text NOT NULL,
	"tokens" bigint NOT NULL,
	"input_tokens" bigint NOT NULL,
	"output_tokens" bigint NOT NULL,
	"cached_tokens" bigint NOT NULL,
	"calls" bigint NOT NULL,
	"estimated_calls" bigint NOT NULL,
	"first_event_id" bigint NOT NULL,
	"last_event_id" bigint NOT NULL,
	CONSTRAINT "bill_lines_scope_key_model_pk" PRIMARY KEY("scope","key","model"),
	CONSTRAINT "bill_lines_scope_check" CHECK ("bill_lines"."scope" in ('agent', 'task', 'run', 'model'))
);
--> statement-breakpoint
CREATE TABLE "bill_runs" (
	"run_id" text PRIMARY KEY NOT NULL,
	"agent_id" uuid,
	"task_id" uuid,
	"status" text,
	"first_event_id" bigint NOT NULL,
	"last_event_id" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bill_snapshot" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"through_tx" bigint DEFAULT 0 NOT NULL,
	"through_id" bigint DEFAULT 0 NOT NULL,
	"folded" bigint DEFAULT 0 NOT NULL,
	"refreshed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bill_snapshot_single_row_check" CHECK ("bill_snapshot"."id" = 1)
);
--> statement-breakpoint
CREATE INDEX "bill_lines_recent_idx" ON "bill_lines" USING btree ("scope","first_event_id");--> statement-breakpoint
CREATE INDEX "bill_runs_recent_idx" ON "bill_runs" USING btree ("first_event_id");--> statement-breakpoint
CREATE INDEX "bill_runs_agent_idx" ON "bill_runs" USING btree ("agent_id","first_event_id");--> statement-breakpoint
CREATE INDEX "bill_runs_task_idx" ON "bill_runs" USING btree ("task_id","first_event_id");
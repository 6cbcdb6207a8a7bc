CREATE TABLE "digest_entries" (
	"window_id" uuid NOT NULL,
	"agent_id" uuid NOT NULL,
	"message_id" bigint NOT NULL,
	"room" text NOT NULL,
	"seq" bigint NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"queued_at" timestamp with time zone NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "digest_entries_agent_id_message_id_pk" PRIMARY KEY("agent_id","message_id"),
	CONSTRAINT "digest_entries_state_check" CHECK ("digest_entries"."state" in ('queued', 'dropped', 'flushed'))
);
--> statement-breakpoint
CREATE TABLE "focus_windows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"agent_id" uuid NOT NULL,
	"task_id" uuid NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	"dropped" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "focus_windows_closed_check" CHECK ("focus_windows"."closed_at" is null or "focus_windows"."closed_at" >= "focus_windows"."opened_at"),
	CONSTRAINT "focus_windows_dropped_check" CHECK ("focus_windows"."dropped" >= 0)
);
--> statement-breakpoint
CREATE TABLE "hold_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"principal_id" uuid NOT NULL,
	"room" text NOT NULL,
	"seq" bigint NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "hold_tokens_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "hold_tokens_expiry_check" CHECK ("hold_tokens"."expires_at" > "hold_tokens"."issued_at"),
	CONSTRAINT "hold_tokens_use_check" CHECK ("hold_tokens"."used_at" is null or "hold_tokens"."used_at" <= "hold_tokens"."expires_at")
);
--> statement-breakpoint
CREATE TABLE "room_rounds" (
	"room" text NOT NULL,
	"n" integer NOT NULL,
	"human_seq" bigint NOT NULL,
	"human_at" timestamp with time zone NOT NULL,
	CONSTRAINT "room_rounds_room_n_pk" PRIMARY KEY("room","n"),
	CONSTRAINT "room_rounds_n_check" CHECK ("room_rounds"."n" >= 1)
);
--> statement-breakpoint
CREATE TABLE "round_counts" (
	"room" text NOT NULL,
	"n" integer NOT NULL,
	"agent_id" uuid NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "round_counts_room_n_agent_id_pk" PRIMARY KEY("room","n","agent_id"),
	CONSTRAINT "round_counts_count_check" CHECK ("round_counts"."count" >= 1)
);
--> statement-breakpoint
CREATE TABLE "seen_cursors" (
	"principal_id" uuid NOT NULL,
	"room" text NOT NULL,
	"seq" bigint NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "seen_cursors_principal_id_room_pk" PRIMARY KEY("principal_id","room"),
	CONSTRAINT "seen_cursors_seq_check" CHECK ("seen_cursors"."seq" >= 0)
);
--> statement-breakpoint
CREATE TABLE "adrs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"task_id" uuid NOT NULL,
	"title" text NOT NULL,
	"context" text NOT NULL,
	"decision" text NOT NULL,
	"consequences" text NOT NULL,
	"author_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "adrs_nonempty_check" CHECK ("adrs"."title" ~ '\S' and "adrs"."context" ~ '\S' and "adrs"."decision" ~ '\S' and "adrs"."consequences" ~ '\S')
);
--> statement-breakpoint
CREATE TABLE "task_evidence" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"task_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"author_id" uuid NOT NULL,
	"fence" bigint,
	"summary" text,
	"evidence" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "task_evidence_kind_check" CHECK ("task_evidence"."kind" in ('submission', 'reopen')),
	CONSTRAINT "task_evidence_nonempty_check" CHECK ("task_evidence"."evidence" ~ '\S'),
	CONSTRAINT "task_evidence_summary_check" CHECK ("task_evidence"."kind" = 'reopen' or coalesce("task_evidence"."summary" ~ '\S', false))
);
--> statement-breakpoint
CREATE TABLE "task_outputs" (
	"task_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"item" jsonb NOT NULL,
	"fence" bigint NOT NULL,
	"author_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "task_outputs_task_id_seq_pk" PRIMARY KEY("task_id","seq"),
	CONSTRAINT "task_outputs_seq_check" CHECK ("task_outputs"."seq" >= 1)
);
--> statement-breakpoint
CREATE TABLE "task_reviews" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"task_id" uuid NOT NULL,
	"reviewer_id" uuid NOT NULL,
	"owner_id" uuid NOT NULL,
	"verdict" text NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "task_reviews_verdict_check" CHECK ("task_reviews"."verdict" in ('accept', 'reject')),
	CONSTRAINT "task_reviews_reviewer_not_owner_check" CHECK ("task_reviews"."reviewer_id" <> "task_reviews"."owner_id"),
	CONSTRAINT "task_reviews_reason_check" CHECK ("task_reviews"."verdict" = 'accept' or coalesce("task_reviews"."reason" ~ '\S', false))
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" bigserial NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"acceptance_criteria" text,
	"status" text DEFAULT 'ready' NOT NULL,
	"owner_id" uuid,
	"approver_id" uuid NOT NULL,
	"fence" bigint DEFAULT 0 NOT NULL,
	"lease_minutes" integer,
	"lease_expires_at" timestamp with time zone,
	"output_count" integer DEFAULT 0 NOT NULL,
	"offered_to" uuid,
	"parent_id" uuid,
	"adr_id" uuid,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tasks_number_unique" UNIQUE("number"),
	CONSTRAINT "tasks_status_check" CHECK ("tasks"."status" in ('ready', 'in_progress', 'review', 'done', 'cancelled')),
	CONSTRAINT "tasks_title_check" CHECK (char_length("tasks"."title") between 1 and 200 and "tasks"."title" ~ '\S'),
	CONSTRAINT "tasks_approver_not_owner_check" CHECK ("tasks"."owner_id" is null or "tasks"."owner_id" <> "tasks"."approver_id"),
	CONSTRAINT "tasks_criteria_check" CHECK ("tasks"."status" in ('ready', 'cancelled') or coalesce("tasks"."acceptance_criteria" ~ '\S', false)),
	CONSTRAINT "tasks_lease_check" CHECK (("tasks"."status" = 'in_progress') = ("tasks"."lease_expires_at" is not null)),
	CONSTRAINT "tasks_owner_check" CHECK ("tasks"."status" = 'cancelled' or ("tasks"."status" = 'ready') = ("tasks"."owner_id" is null)),
	CONSTRAINT "tasks_cancel_adr_check" CHECK (("tasks"."status" = 'cancelled') = ("tasks"."adr_id" is not null)),
	CONSTRAINT "tasks_fence_check" CHECK ("tasks"."fence" >= 0),
	CONSTRAINT "tasks_output_count_check" CHECK ("tasks"."output_count" >= 0),
	CONSTRAINT "tasks_lease_minutes_check" CHECK ("tasks"."lease_minutes" is null or "tasks"."lease_minutes" between 1 and 1440)
);
--> statement-breakpoint
CREATE TABLE "ballots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"decision_id" uuid NOT NULL,
	"voter_id" uuid NOT NULL,
	"option" text NOT NULL,
	"reasoning" text NOT NULL,
	"cast_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ballots_reasoning_check" CHECK (length("ballots"."reasoning") between 1 and 4000)
);
--> statement-breakpoint
CREATE TABLE "decisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" integer GENERATED ALWAYS AS IDENTITY (sequence name "decisions_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"question" text NOT NULL,
	"options" text[] NOT NULL,
	"default_option" text NOT NULL,
	"consequence" text NOT NULL,
	"quorum" integer NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"timebox_at" timestamp with time zone NOT NULL,
	"escalation_timebox_seconds" integer NOT NULL,
	"escalated_at" timestamp with time zone,
	"escalation_deadline" timestamp with time zone,
	"envelope" text,
	"outcome" text,
	"opened_by" uuid NOT NULL,
	"resolved_by" uuid,
	"decided_at" timestamp with time zone,
	"announced_status" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "decisions_number_unique" UNIQUE("number"),
	CONSTRAINT "decisions_status_check" CHECK ("decisions"."status" in ('open', 'closed', 'escalated', 'resolved', 'defaulted')),
	CONSTRAINT "decisions_options_check" CHECK (cardinality("decisions"."options") between 2 and 10),
	CONSTRAINT "decisions_default_check" CHECK ("decisions"."default_option" = any("decisions"."options")),
	CONSTRAINT "decisions_quorum_check" CHECK ("decisions"."quorum" between 1 and 1000),
	CONSTRAINT "decisions_escalation_timebox_check" CHECK ("decisions"."escalation_timebox_seconds" > 0),
	CONSTRAINT "decisions_outcome_check" CHECK (("decisions"."status" in ('closed', 'resolved', 'defaulted')) = ("decisions"."outcome" is not null) and ("decisions"."outcome" is null or "decisions"."outcome" = any("decisions"."options"))),
	CONSTRAINT "decisions_escalation_check" CHECK (("decisions"."status" in ('escalated', 'resolved', 'defaulted')) = ("decisions"."escalation_deadline" is not null and "decisions"."envelope" is not null)),
	CONSTRAINT "decisions_resolver_check" CHECK (("decisions"."status" = 'resolved') = ("decisions"."resolved_by" is not null))
);
--> statement-breakpoint
CREATE TABLE "commitment_dependencies" (
	"blocked_id" uuid NOT NULL,
	"blocker_id" uuid NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_reminded_at" timestamp with time zone,
	CONSTRAINT "commitment_dependencies_blocked_id_blocker_id_pk" PRIMARY KEY("blocked_id","blocker_id"),
	CONSTRAINT "commitment_dependencies_self_check" CHECK ("commitment_dependencies"."blocked_id" <> "commitment_dependencies"."blocker_id")
);
--> statement-breakpoint
CREATE TABLE "commitments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" integer GENERATED ALWAYS AS IDENTITY (sequence name "commitments_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"owner_id" uuid NOT NULL,
	"what" text NOT NULL,
	"task_id" uuid,
	"due_at" timestamp with time zone,
	"status" text DEFAULT 'candidate' NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone NOT NULL,
	"confirmed_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "commitments_number_unique" UNIQUE("number"),
	CONSTRAINT "commitments_status_check" CHECK ("commitments"."status" in ('candidate', 'confirmed', 'fulfilled', 'withdrawn')),
	CONSTRAINT "commitments_what_check" CHECK (length("commitments"."what") between 1 and 500),
	CONSTRAINT "commitments_reason_check" CHECK (("commitments"."status" in ('fulfilled', 'withdrawn')) = ("commitments"."reason" is not null and length("commitments"."reason") > 0)),
	CONSTRAINT "commitments_confirmed_check" CHECK ("commitments"."status" = 'candidate' or "commitments"."status" = 'withdrawn' or "commitments"."confirmed_at" is not null)
);
--> statement-breakpoint
CREATE TABLE "lessons" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"text" text NOT NULL,
	"key" text NOT NULL,
	"source_id" uuid NOT NULL,
	"task_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "lessons_once_per_source_task" UNIQUE NULLS NOT DISTINCT("key","source_id","task_id"),
	CONSTRAINT "lessons_text_check" CHECK (length("lessons"."text") between 1 and 2000),
	CONSTRAINT "lessons_key_check" CHECK (length("lessons"."key") between 1 and 2000)
);
--> statement-breakpoint
CREATE TABLE "principles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key" text NOT NULL,
	"text" text NOT NULL,
	"promoted_at" timestamp with time zone,
	"pinned_by" uuid,
	"pinned_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "principles_key_unique" UNIQUE("key"),
	CONSTRAINT "principles_pin_check" CHECK (("principles"."pinned_by" is null) = ("principles"."pinned_at" is null)),
	CONSTRAINT "principles_text_check" CHECK (length("principles"."text") between 1 and 2000)
);
--> statement-breakpoint
ALTER TABLE "digest_entries" ADD CONSTRAINT "digest_entries_window_id_focus_windows_id_fk" FOREIGN KEY ("window_id") REFERENCES "public"."focus_windows"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "digest_entries" ADD CONSTRAINT "digest_entries_agent_id_principals_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "digest_entries" ADD CONSTRAINT "digest_entries_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "focus_windows" ADD CONSTRAINT "focus_windows_agent_id_principals_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hold_tokens" ADD CONSTRAINT "hold_tokens_principal_id_principals_id_fk" FOREIGN KEY ("principal_id") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hold_tokens" ADD CONSTRAINT "hold_tokens_room_rooms_name_fk" FOREIGN KEY ("room") REFERENCES "public"."rooms"("name") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "room_rounds" ADD CONSTRAINT "room_rounds_room_rooms_name_fk" FOREIGN KEY ("room") REFERENCES "public"."rooms"("name") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "round_counts" ADD CONSTRAINT "round_counts_room_rooms_name_fk" FOREIGN KEY ("room") REFERENCES "public"."rooms"("name") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "round_counts" ADD CONSTRAINT "round_counts_agent_id_principals_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seen_cursors" ADD CONSTRAINT "seen_cursors_principal_id_principals_id_fk" FOREIGN KEY ("principal_id") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seen_cursors" ADD CONSTRAINT "seen_cursors_room_rooms_name_fk" FOREIGN KEY ("room") REFERENCES "public"."rooms"("name") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "adrs" ADD CONSTRAINT "adrs_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "adrs" ADD CONSTRAINT "adrs_author_id_principals_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_evidence" ADD CONSTRAINT "task_evidence_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_evidence" ADD CONSTRAINT "task_evidence_author_id_principals_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_outputs" ADD CONSTRAINT "task_outputs_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_outputs" ADD CONSTRAINT "task_outputs_author_id_principals_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_reviews" ADD CONSTRAINT "task_reviews_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_reviews" ADD CONSTRAINT "task_reviews_reviewer_id_principals_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_reviews" ADD CONSTRAINT "task_reviews_owner_id_principals_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_owner_id_principals_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_approver_id_principals_id_fk" FOREIGN KEY ("approver_id") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_offered_to_principals_id_fk" FOREIGN KEY ("offered_to") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_parent_id_tasks_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_adr_id_adrs_id_fk" FOREIGN KEY ("adr_id") REFERENCES "public"."adrs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_created_by_principals_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ballots" ADD CONSTRAINT "ballots_decision_id_decisions_id_fk" FOREIGN KEY ("decision_id") REFERENCES "public"."decisions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ballots" ADD CONSTRAINT "ballots_voter_id_principals_id_fk" FOREIGN KEY ("voter_id") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "decisions" ADD CONSTRAINT "decisions_opened_by_principals_id_fk" FOREIGN KEY ("opened_by") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "decisions" ADD CONSTRAINT "decisions_resolved_by_principals_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commitment_dependencies" ADD CONSTRAINT "commitment_dependencies_blocked_id_commitments_id_fk" FOREIGN KEY ("blocked_id") REFERENCES "public"."commitments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commitment_dependencies" ADD CONSTRAINT "commitment_dependencies_blocker_id_commitments_id_fk" FOREIGN KEY ("blocker_id") REFERENCES "public"."commitments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commitment_dependencies" ADD CONSTRAINT "commitment_dependencies_created_by_principals_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commitments" ADD CONSTRAINT "commitments_owner_id_principals_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lessons" ADD CONSTRAINT "lessons_source_id_principals_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "principles" ADD CONSTRAINT "principles_pinned_by_principals_id_fk" FOREIGN KEY ("pinned_by") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "digest_entries_window_idx" ON "digest_entries" USING btree ("window_id","state","message_id");--> statement-breakpoint
CREATE INDEX "digest_entries_message_idx" ON "digest_entries" USING btree ("message_id");--> statement-breakpoint
CREATE UNIQUE INDEX "focus_windows_open_idx" ON "focus_windows" USING btree ("agent_id") WHERE "focus_windows"."closed_at" is null;--> statement-breakpoint
CREATE INDEX "focus_windows_agent_idx" ON "focus_windows" USING btree ("agent_id","opened_at");--> statement-breakpoint
CREATE INDEX "hold_tokens_principal_idx" ON "hold_tokens" USING btree ("principal_id","room");--> statement-breakpoint
CREATE UNIQUE INDEX "adrs_task_idx" ON "adrs" USING btree ("task_id");--> statement-breakpoint
CREATE INDEX "task_evidence_task_idx" ON "task_evidence" USING btree ("task_id","id");--> statement-breakpoint
CREATE INDEX "task_reviews_task_idx" ON "task_reviews" USING btree ("task_id","id");--> statement-breakpoint
CREATE INDEX "tasks_ready_idx" ON "tasks" USING btree ("number") WHERE "tasks"."status" = 'ready';--> statement-breakpoint
CREATE INDEX "tasks_offered_idx" ON "tasks" USING btree ("offered_to") WHERE "tasks"."status" = 'ready' and "tasks"."offered_to" is not null;--> statement-breakpoint
CREATE INDEX "tasks_lease_idx" ON "tasks" USING btree ("lease_expires_at") WHERE "tasks"."status" = 'in_progress';--> statement-breakpoint
CREATE INDEX "tasks_status_idx" ON "tasks" USING btree ("status","number");--> statement-breakpoint
CREATE INDEX "tasks_owner_idx" ON "tasks" USING btree ("owner_id","status");--> statement-breakpoint
CREATE INDEX "tasks_approver_idx" ON "tasks" USING btree ("approver_id");--> statement-breakpoint
CREATE INDEX "tasks_parent_idx" ON "tasks" USING btree ("parent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ballots_one_per_voter_idx" ON "ballots" USING btree ("decision_id","voter_id");--> statement-breakpoint
CREATE INDEX "ballots_voter_idx" ON "ballots" USING btree ("voter_id");--> statement-breakpoint
CREATE INDEX "decisions_open_timebox_idx" ON "decisions" USING btree ("timebox_at") WHERE "decisions"."status" = 'open';--> statement-breakpoint
CREATE INDEX "decisions_escalated_deadline_idx" ON "decisions" USING btree ("escalation_deadline") WHERE "decisions"."status" = 'escalated';--> statement-breakpoint
CREATE INDEX "decisions_status_number_idx" ON "decisions" USING btree ("status","number");--> statement-breakpoint
CREATE INDEX "decisions_opened_by_idx" ON "decisions" USING btree ("opened_by");--> statement-breakpoint
CREATE INDEX "commitment_dependencies_blocker_idx" ON "commitment_dependencies" USING btree ("blocker_id");--> statement-breakpoint
CREATE INDEX "commitments_owner_idx" ON "commitments" USING btree ("owner_id","number");--> statement-breakpoint
CREATE INDEX "commitments_status_idx" ON "commitments" USING btree ("status","number");--> statement-breakpoint
CREATE INDEX "commitments_task_idx" ON "commitments" USING btree ("task_id");--> statement-breakpoint
CREATE INDEX "lessons_source_idx" ON "lessons" USING btree ("source_id");
CREATE TABLE "reservations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"fence" bigserial NOT NULL,
	"scope" text DEFAULT 'default' NOT NULL,
	"holder_id" uuid NOT NULL,
	"patterns" text[] NOT NULL,
	"mode" text NOT NULL,
	"reason" text NOT NULL,
	"task_id" uuid,
	"status" text DEFAULT 'active' NOT NULL,
	"ttl_seconds" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"ended_by" uuid,
	"end_reason" text,
	CONSTRAINT "reservations_fence_unique" UNIQUE("fence"),
	CONSTRAINT "reservations_mode_check" CHECK ("reservations"."mode" in ('exclusive', 'shared')),
	CONSTRAINT "reservations_status_check" CHECK ("reservations"."status" in ('active', 'released', 'expired', 'force_released')),
	CONSTRAINT "reservations_patterns_check" CHECK (cardinality("reservations"."patterns") between 1 and 32),
	CONSTRAINT "reservations_reason_check" CHECK ("reservations"."reason" ~ '\S'),
	CONSTRAINT "reservations_ttl_check" CHECK ("reservations"."ttl_seconds" between 60 and 86400),
	CONSTRAINT "reservations_scope_check" CHECK ("reservations"."scope" ~ '^[A-Za-z0-9][A-Za-z0-9_.:/-]{0,127}$'),
	CONSTRAINT "reservations_ended_check" CHECK (("reservations"."status" = 'active') = ("reservations"."ended_at" is null)),
	CONSTRAINT "reservations_force_reason_check" CHECK ("reservations"."status" <> 'force_released' or coalesce("reservations"."end_reason" ~ '\S', false))
);
--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_holder_id_principals_id_fk" FOREIGN KEY ("holder_id") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_ended_by_principals_id_fk" FOREIGN KEY ("ended_by") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reservations_active_idx" ON "reservations" USING btree ("scope","expires_at") WHERE "reservations"."status" = 'active';--> statement-breakpoint
CREATE INDEX "reservations_sweep_idx" ON "reservations" USING btree ("expires_at") WHERE "reservations"."status" = 'active';--> statement-breakpoint
CREATE INDEX "reservations_holder_idx" ON "reservations" USING btree ("holder_id","status");--> statement-breakpoint
CREATE INDEX "reservations_task_idx" ON "reservations" USING btree ("task_id");
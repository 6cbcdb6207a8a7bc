CREATE TABLE "flight_tasks" (
	"task_id" uuid PRIMARY KEY NOT NULL,
	"flight_id" uuid NOT NULL,
	"integrated_at" timestamp with time zone,
	"tested_at" timestamp with time zone,
	"reasked_at" timestamp with time zone,
	"escalated_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "flights" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"goal" text NOT NULL,
	"repo" text NOT NULL,
	"goal_task_id" uuid NOT NULL,
	"mode" text NOT NULL,
	"status" text DEFAULT 'planning' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "flights_status_check" CHECK ("flights"."status" in ('planning', 'working', 'green', 'red'))
);
--> statement-breakpoint
ALTER TABLE "flight_tasks" ADD CONSTRAINT "flight_tasks_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flight_tasks" ADD CONSTRAINT "flight_tasks_flight_id_flights_id_fk" FOREIGN KEY ("flight_id") REFERENCES "public"."flights"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flights" ADD CONSTRAINT "flights_goal_task_id_tasks_id_fk" FOREIGN KEY ("goal_task_id") REFERENCES "public"."tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "flight_tasks_flight_idx" ON "flight_tasks" USING btree ("flight_id");
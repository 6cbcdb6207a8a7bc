ALTER TABLE "webhook_endpoints" ADD COLUMN "task_id" uuid;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "config_id" text;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "notification_token" text;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "authorization" text;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "pushed_state" text;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "checked_through" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_endpoints_task_idx" ON "webhook_endpoints" USING btree ("task_id") WHERE "webhook_endpoints"."task_id" is not null and "webhook_endpoints"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_endpoints_config_idx" ON "webhook_endpoints" USING btree ("task_id","created_by","config_id") WHERE "webhook_endpoints"."deleted_at" is null;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_a2a_check" CHECK (("webhook_endpoints"."task_id" is null) = ("webhook_endpoints"."config_id" is null));
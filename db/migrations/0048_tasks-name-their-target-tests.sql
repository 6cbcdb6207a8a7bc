ALTER TABLE "tasks" ADD COLUMN "target_tests" text[];--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "submitted_tests" jsonb;--> statement-breakpoint
ALTER TABLE "flights" ADD COLUMN "baseline_tests" jsonb;
ALTER TABLE "flights" ADD COLUMN "setup_command" text;--> statement-breakpoint
ALTER TABLE "flights" ADD COLUMN "setup_source" text;
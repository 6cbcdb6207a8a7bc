ALTER TABLE "flights" ADD COLUMN "pull_request_number" integer;--> statement-breakpoint
ALTER TABLE "flights" ADD COLUMN "pull_request_url" text;
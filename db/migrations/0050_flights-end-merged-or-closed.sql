ALTER TABLE "flights" ADD COLUMN "base_branch" text;--> statement-breakpoint
ALTER TABLE "flights" ADD COLUMN "merged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "flights" ADD COLUMN "merged_commit" text;--> statement-breakpoint
ALTER TABLE "flights" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "flights" ADD COLUMN "closed_reason" text;--> statement-breakpoint
ALTER TABLE "flights" ADD CONSTRAINT "flights_ends_once_check" CHECK ("flights"."merged_at" is null or "flights"."closed_at" is null);
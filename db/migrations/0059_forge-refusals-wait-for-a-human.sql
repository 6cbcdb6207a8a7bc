ALTER TABLE "flights" ADD COLUMN "forge_refusal" text;--> statement-breakpoint
ALTER TABLE "flights" ADD COLUMN "forge_refused_at" timestamp with time zone;
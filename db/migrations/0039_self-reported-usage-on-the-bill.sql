ALTER TABLE "bill_lines" ADD COLUMN "self_reported_tokens" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "bill_lines" ADD COLUMN "self_reported_calls" bigint DEFAULT 0 NOT NULL;
CREATE TABLE "review_comments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"task_id" uuid NOT NULL,
	"author_id" uuid NOT NULL,
	"path" text NOT NULL,
	"side" text NOT NULL,
	"line" integer NOT NULL,
	"end_line" integer NOT NULL,
	"body" text NOT NULL,
	"review_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_comments_side_check" CHECK ("review_comments"."side" in ('new', 'old')),
	CONSTRAINT "review_comments_lines_check" CHECK ("review_comments"."line" >= 1 and "review_comments"."end_line" >= "review_comments"."line"),
	CONSTRAINT "review_comments_body_check" CHECK ("review_comments"."body" ~ '\S')
);
--> statement-breakpoint
ALTER TABLE "review_comments" ADD CONSTRAINT "review_comments_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_comments" ADD CONSTRAINT "review_comments_author_id_principals_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_comments" ADD CONSTRAINT "review_comments_review_id_task_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."task_reviews"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "review_comments_task_idx" ON "review_comments" USING btree ("task_id","created_at");
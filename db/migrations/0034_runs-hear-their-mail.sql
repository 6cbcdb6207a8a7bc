CREATE TABLE "run_mail_cursors" (
	"agent_id" uuid PRIMARY KEY NOT NULL,
	"message_id" bigint NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "run_mail_cursors" ADD CONSTRAINT "run_mail_cursors_agent_id_principals_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;
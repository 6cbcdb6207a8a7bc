CREATE TABLE "flight_allowances" (
	"agent_id" uuid PRIMARY KEY NOT NULL,
	"tokens" bigint NOT NULL,
	"committed" bigint DEFAULT 0 NOT NULL,
	"set_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "flight_allowances_tokens_check" CHECK ("flight_allowances"."tokens" >= 0 and "flight_allowances"."committed" >= 0)
);
--> statement-breakpoint
ALTER TABLE "flight_allowances" ADD CONSTRAINT "flight_allowances_agent_id_principals_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flight_allowances" ADD CONSTRAINT "flight_allowances_set_by_principals_id_fk" FOREIGN KEY ("set_by") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;
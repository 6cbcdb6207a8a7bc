CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"principal_id" uuid NOT NULL,
	"key_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_keys_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "principals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"role" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone,
	CONSTRAINT "principals_name_unique" UNIQUE("name"),
	CONSTRAINT "principals_kind_check" CHECK ("principals"."kind" in ('human', 'agent', 'system')),
	CONSTRAINT "principals_name_check" CHECK ("principals"."name" ~ '^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$')
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"principal_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sessions_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "sign_in_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"principal_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"room" text NOT NULL,
	"seq" bigint NOT NULL,
	"sender_id" uuid NOT NULL,
	"to_id" uuid,
	"performative" text,
	"task_id" uuid,
	"body" text NOT NULL,
	"payload" jsonb,
	"mentions" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"held_seq" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "messages_body_size_check" CHECK (octet_length("messages"."body") between 1 and 16384),
	CONSTRAINT "messages_payload_size_check" CHECK ("messages"."payload" is null or octet_length("messages"."payload"::text) <= 65536),
	CONSTRAINT "messages_performative_check" CHECK ("messages"."performative" is null or "messages"."performative" in ('REQUEST','INFORM','PROPOSE','ACCEPT','REJECT','DONE','ERROR'))
);
--> statement-breakpoint
CREATE TABLE "rooms" (
	"name" text PRIMARY KEY NOT NULL,
	"last_seq" bigint DEFAULT 0 NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rooms_name_check" CHECK ("rooms"."name" ~ '^[a-z0-9][a-z0-9-]{0,63}$')
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"v" integer DEFAULT 1 NOT NULL,
	"t" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"actor" uuid,
	"run_id" text,
	"task_id" uuid,
	"turn" integer,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_principal_id_principals_id_fk" FOREIGN KEY ("principal_id") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_principal_id_principals_id_fk" FOREIGN KEY ("principal_id") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sign_in_links" ADD CONSTRAINT "sign_in_links_principal_id_principals_id_fk" FOREIGN KEY ("principal_id") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_room_rooms_name_fk" FOREIGN KEY ("room") REFERENCES "public"."rooms"("name") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_sender_id_principals_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_to_id_principals_id_fk" FOREIGN KEY ("to_id") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rooms" ADD CONSTRAINT "rooms_created_by_principals_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_principal_idx" ON "api_keys" USING btree ("principal_id");--> statement-breakpoint
CREATE INDEX "sessions_principal_idx" ON "sessions" USING btree ("principal_id");--> statement-breakpoint
CREATE INDEX "sign_in_links_principal_idx" ON "sign_in_links" USING btree ("principal_id");--> statement-breakpoint
CREATE UNIQUE INDEX "messages_room_seq_idx" ON "messages" USING btree ("room","seq");--> statement-breakpoint
CREATE INDEX "messages_sender_idx" ON "messages" USING btree ("sender_id","room");--> statement-breakpoint
CREATE INDEX "messages_to_idx" ON "messages" USING btree ("to_id");--> statement-breakpoint
CREATE INDEX "messages_task_idx" ON "messages" USING btree ("task_id");--> statement-breakpoint
CREATE INDEX "events_kind_idx" ON "events" USING btree ("kind","id");--> statement-breakpoint
CREATE INDEX "events_actor_idx" ON "events" USING btree ("actor","id");--> statement-breakpoint
CREATE INDEX "events_task_idx" ON "events" USING btree ("task_id","id");--> statement-breakpoint
CREATE INDEX "events_run_idx" ON "events" USING btree ("run_id","id");
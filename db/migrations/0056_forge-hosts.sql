CREATE TABLE "forge_hosts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"host" text NOT NULL,
	"kind" text NOT NULL,
	"api_url" text NOT NULL,
	"token" text NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "forge_hosts_host_unique" UNIQUE("host"),
	CONSTRAINT "forge_hosts_host_check" CHECK ("forge_hosts"."host" = lower("forge_hosts"."host") and "forge_hosts"."host" ~ '^[a-z0-9.:\[\]-]+$'),
	CONSTRAINT "forge_hosts_kind_check" CHECK ("forge_hosts"."kind" in ('github')),
	CONSTRAINT "forge_hosts_api_url_check" CHECK ("forge_hosts"."api_url" ~ '^https?://'),
	CONSTRAINT "forge_hosts_token_check" CHECK (length("forge_hosts"."token") >= 8)
);
--> statement-breakpoint
ALTER TABLE "forge_hosts" ADD CONSTRAINT "forge_hosts_created_by_principals_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;
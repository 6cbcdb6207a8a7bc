// Forges: the hosts of remote repositories a human connected in Settings, each with the token the hub uses there.
import { sql } from "drizzle-orm";
import { check, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { principals } from "./principals";

/** The forges Quorum speaks to; GitHub (and GitHub Enterprise) for now. */
export const FORGE_KINDS = ["github"] as const;
export type ForgeKind = (typeof FORGE_KINDS)[number];

export const forgeHosts = pgTable(
  "forge_hosts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** A URL's authority, lower-case, with its port when it has one (`github.com`, `127.0.0.1:9418`): what a remote's URL is matched on. */
    host: text("host").notNull().unique(),
    kind: text("kind", { enum: FORGE_KINDS }).notNull(),
    /** The forge's REST base (`https://api.github.com`, `https://HOST/api/v3` for GitHub Enterprise). */
    apiUrl: text("api_url").notNull(),
    /** A hub secret (domain/hub-secrets.ts): never answered, never journalled, scrubbed from every tool's output. */
    token: text("token").notNull(),
    createdBy: uuid("created_by")
      .notNull()
      .references(() => principals.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    check("forge_hosts_host_check", sql`${t.host} = lower(${t.host}) and ${t.host} ~ '^[a-z0-9.:\\[\\]-]+$'`),
    check("forge_hosts_kind_check", sql`${t.kind} in ('github')`),
    check("forge_hosts_api_url_check", sql`${t.apiUrl} ~ '^https?://'`),
    check("forge_hosts_token_check", sql`length(${t.token}) >= 8`),
  ],
);

// Principals (humans and agents) and the credentials that prove who they are.
import { sql } from "drizzle-orm";
import { check, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

export const principals = pgTable(
  "principals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    // `system` is Quorum itself (the principal named `quorum`): it announces escalations and reminders.
    kind: text("kind", { enum: ["human", "agent", "system"] }).notNull(),
    name: text("name").notNull().unique(),
    role: text("role"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }),
    /** A human another human removed: no session signs them in; their history keeps their name. */
    removedAt: timestamp("removed_at", { withTimezone: true }),
  },
  (t) => [
    check("principals_kind_check", sql`${t.kind} in ('human', 'agent', 'system')`),
    // Names are @mention handles: no spaces, no punctuation that would end a mention.
    check("principals_name_check", sql`${t.name} ~ '^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$'`),
  ],
);

/** Bearer keys: random, shown once, stored as a SHA-256 hash. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    principalId: uuid("principal_id")
      .notNull()
      .references(() => principals.id),
    keyHash: text("key_hash").notNull().unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [index("api_keys_principal_idx").on(t.principalId)],
);

/** Browser sessions of humans; the cookie holds the token, the table its hash. */
export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    principalId: uuid("principal_id")
      .notNull()
      .references(() => principals.id),
    tokenHash: text("token_hash").notNull().unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("sessions_principal_idx").on(t.principalId)],
);

/**
 * Invitations a human made for a teammate: a link shown once (its token stored as a hash), for a name, until it
 * expires, is accepted (the human is created then, `acceptedBy`) or revoked.
 */
export const invitations = pgTable(
  "invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tokenHash: text("token_hash").notNull().unique(),
    name: text("name").notNull(),
    createdBy: uuid("created_by")
      .notNull()
      .references(() => principals.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    acceptedBy: uuid("accepted_by").references(() => principals.id),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [
    index("invitations_open_idx").on(t.expiresAt).where(sql`${t.acceptedAt} is null and ${t.revokedAt} is null`),
    check("invitations_ends_once_check", sql`${t.acceptedAt} is null or ${t.revokedAt} is null`),
    check("invitations_accepted_by_check", sql`(${t.acceptedAt} is null) = (${t.acceptedBy} is null)`),
  ],
);

/** One-time sign-in links (15 minutes, single use). */
export const signInLinks = pgTable(
  "sign_in_links",
  {
    tokenHash: text("token_hash").primaryKey(),
    principalId: uuid("principal_id")
      .notNull()
      .references(() => principals.id),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [index("sign_in_links_principal_idx").on(t.principalId)],
);

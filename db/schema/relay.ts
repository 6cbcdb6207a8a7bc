// The relay's state: seen-cursors, hold tokens, focus windows with their digests, and room rounds.
import { sql } from "drizzle-orm";
import { bigint, check, doublePrecision, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { principals } from "./principals";
import { messages, rooms } from "./rooms";

/** How far each principal has acknowledged a room; moved only by an explicit ack, never by reading. */
export const seenCursors = pgTable(
  "seen_cursors",
  {
    principalId: uuid("principal_id")
      .notNull()
      .references(() => principals.id),
    room: text("room")
      .notNull()
      .references(() => rooms.name),
    seq: bigint("seq", { mode: "number" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.principalId, t.room] }), check("seen_cursors_seq_check", sql`${t.seq} >= 0`)],
);

/** A stale refusal's permission to post anyway: bound to the latest seq shown, 120 s, single use. */
export const holdTokens = pgTable(
  "hold_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tokenHash: text("token_hash").notNull().unique(),
    principalId: uuid("principal_id")
      .notNull()
      .references(() => principals.id),
    room: text("room")
      .notNull()
      .references(() => rooms.name),
    seq: bigint("seq", { mode: "number" }).notNull(),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [
    index("hold_tokens_principal_idx").on(t.principalId, t.room),
    check("hold_tokens_expiry_check", sql`${t.expiresAt} > ${t.issuedAt}`),
    check("hold_tokens_use_check", sql`${t.usedAt} is null or ${t.usedAt} <= ${t.expiresAt}`),
  ],
);

/** While an agent works a claimed task, room messages wait in its digest instead of interrupting it. */
export const focusWindows = pgTable(
  "focus_windows",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    agentId: uuid("agent_id")
      .notNull()
      .references(() => principals.id),
    taskId: uuid("task_id").notNull(),
    openedAt: timestamp("opened_at", { withTimezone: true }).notNull(),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    /** Messages pushed out of the full digest (oldest first) since the last flush. */
    dropped: integer("dropped").notNull().default(0),
  },
  (t) => [
    // At most one open window per agent.
    uniqueIndex("focus_windows_open_idx").on(t.agentId).where(sql`${t.closedAt} is null`),
    index("focus_windows_agent_idx").on(t.agentId, t.openedAt),
    check("focus_windows_closed_check", sql`${t.closedAt} is null or ${t.closedAt} >= ${t.openedAt}`),
    check("focus_windows_dropped_check", sql`${t.dropped} >= 0`),
  ],
);

export const DIGEST_STATES = ["queued", "dropped", "flushed"] as const;

/** A message held for a focusing agent: queued until flushed, or dropped when the digest overflowed. */
export const digestEntries = pgTable(
  "digest_entries",
  {
    windowId: uuid("window_id")
      .notNull()
      .references(() => focusWindows.id),
    agentId: uuid("agent_id")
      .notNull()
      .references(() => principals.id),
    messageId: bigint("message_id", { mode: "number" })
      .notNull()
      .references(() => messages.id),
    room: text("room").notNull(),
    seq: bigint("seq", { mode: "number" }).notNull(),
    state: text("state", { enum: DIGEST_STATES }).notNull().default("queued"),
    queuedAt: timestamp("queued_at", { withTimezone: true }).notNull(),
    settledAt: timestamp("settled_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.messageId] }),
    index("digest_entries_window_idx").on(t.windowId, t.state, t.messageId),
    index("digest_entries_message_idx").on(t.messageId),
    check("digest_entries_state_check", sql`${t.state} in ('queued', 'dropped', 'flushed')`),
  ],
);

/**
 * One row per human message of a room (a trigger keeps it): round n is the span after human
 * message n, closed by human message n+1. Lapping and the two-tier cap read these, not memory.
 */
export const roomRounds = pgTable(
  "room_rounds",
  {
    room: text("room")
      .notNull()
      .references(() => rooms.name),
    n: integer("n").notNull(),
    humanSeq: bigint("human_seq", { mode: "number" }).notNull(),
    humanAt: timestamp("human_at", { withTimezone: true }).notNull(),
    // The two-tier cap's figures over the closed rounds before this one, computed once when the round
    // opens (round_counts only change then), so a post reads three numbers instead of every count.
    priorRounds: integer("prior_rounds").notNull().default(0),
    priorMean: doublePrecision("prior_mean"),
    priorStdDev: doublePrecision("prior_std_dev"),
  },
  (t) => [primaryKey({ columns: [t.room, t.n] }), check("room_rounds_n_check", sql`${t.n} >= 1`)],
);

/** Per-agent message counts of each closed round (written by the same trigger): μ and σ of the two-tier cap. */
export const roundCounts = pgTable(
  "round_counts",
  {
    room: text("room")
      .notNull()
      .references(() => rooms.name),
    n: integer("n").notNull(),
    agentId: uuid("agent_id")
      .notNull()
      .references(() => principals.id),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.room, t.n, t.agentId] }), check("round_counts_count_check", sql`${t.count} >= 1`)],
);

/**
 * How far an agent's runs have been given their mail (domain/runs/mail.ts): the newest message id folded into
 * one of its turns. Moved in the transaction that journals the turn's ModelCalled, so mail is delivered once.
 */
export const runMailCursors = pgTable("run_mail_cursors", {
  agentId: uuid("agent_id")
    .primaryKey()
    .references(() => principals.id),
  messageId: bigint("message_id", { mode: "number" }).notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
});

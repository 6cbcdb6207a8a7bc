// The commitment ledger: who promised what by when, and which promise waits on which.
import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { principals } from "./principals";

export const COMMITMENT_STATUSES = ["candidate", "confirmed", "fulfilled", "withdrawn"] as const;
export type CommitmentStatus = (typeof COMMITMENT_STATUSES)[number];

export const commitments = pgTable(
  "commitments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** A short handle for people (C-7) and the cursor of the paginated ledger. */
    number: integer("number").generatedAlwaysAsIdentity().notNull().unique(),
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => principals.id),
    what: text("what").notNull(),
    // No foreign key: tasks live in another institution's table; the id links the thread.
    taskId: uuid("task_id"),
    dueAt: timestamp("due_at", { withTimezone: true }),
    status: text("status", { enum: COMMITMENT_STATUSES }).notNull().default("candidate"),
    /** Why it was fulfilled (the evidence) or withdrawn. */
    reason: text("reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    check("commitments_status_check", sql`${t.status} in ('candidate', 'confirmed', 'fulfilled', 'withdrawn')`),
    check("commitments_what_check", sql`length(${t.what}) between 1 and 500`),
    check("commitments_reason_check", sql`(${t.status} in ('fulfilled', 'withdrawn')) = (${t.reason} is not null and length(${t.reason}) > 0)`),
    check("commitments_confirmed_check", sql`${t.status} = 'candidate' or ${t.status} = 'withdrawn' or ${t.confirmedAt} is not null`),
    index("commitments_owner_idx").on(t.ownerId, t.number),
    index("commitments_status_idx").on(t.status, t.number),
    index("commitments_task_idx").on(t.taskId),
    // The reminder sweeper's first question, "is any confirmed commitment overdue?", in one index probe.
    index("commitments_confirmed_due_idx").on(t.dueAt).where(sql`${t.status} = 'confirmed'`),
  ],
);

/** `blockedId` waits on `blockerId`. A trigger (migration commitment_guards) refuses any edge that closes a cycle. */
export const commitmentDependencies = pgTable(
  "commitment_dependencies",
  {
    blockedId: uuid("blocked_id")
      .notNull()
      .references(() => commitments.id),
    blockerId: uuid("blocker_id")
      .notNull()
      .references(() => commitments.id),
    createdBy: uuid("created_by")
      .notNull()
      .references(() => principals.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    /** The reminder cooldown is per edge: at most one nudge per 45 minutes. */
    lastRemindedAt: timestamp("last_reminded_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.blockedId, t.blockerId] }),
    index("commitment_dependencies_blocker_idx").on(t.blockerId),
    check("commitment_dependencies_self_check", sql`${t.blockedId} <> ${t.blockerId}`),
  ],
);

// The task board: tasks with leases and fencing tokens, their incremental output, evidence, reviews and ADRs.
import { sql } from "drizzle-orm";
import { bigint, bigserial, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from "drizzle-orm/pg-core";
import { principals } from "./principals";

export const TASK_STATUSES = ["ready", "in_progress", "review", "done", "cancelled"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const tasks = pgTable(
  "tasks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** A short human handle (#42) and the board's stable order; claim-next takes the lowest ready one. */
    number: bigserial("number", { mode: "number" }).notNull().unique(),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    acceptanceCriteria: text("acceptance_criteria"),
    status: text("status", { enum: TASK_STATUSES }).notNull().default("ready"),
    ownerId: uuid("owner_id").references(() => principals.id),
    approverId: uuid("approver_id")
      .notNull()
      .references(() => principals.id),
    /** The fencing token: +1 on every claim; every write by the owner must carry the current one. */
    fence: bigint("fence", { mode: "number" }).notNull().default(0),
    /** Per-task lease length; null means the global default (QUORUM_LEASE_MINUTES, else 30). */
    leaseMinutes: integer("lease_minutes"),
    /** The tests this task is meant to make pass (its plan's, or a human's); null when none are named. */
    targetTests: text("target_tests").array(),
    /** The per-test results of the test run behind the latest submission (domain/verification/test-results.ts), or null. */
    submittedTests: jsonb("submitted_tests"),
    leaseExpiresAt: timestamp("lease_expires_at", { withTimezone: true }),
    outputCount: integer("output_count").notNull().default(0),
    /** How many of the tasks it depends on are not finished yet (kept by db/functions/quorum_recount_waiting.sql); claimed only at 0. */
    waitingOn: integer("waiting_on").notNull().default(0),
    /** The agent the lease sweeper offered this task to; its claim-next takes it first. */
    offeredTo: uuid("offered_to").references(() => principals.id),
    parentId: uuid("parent_id").references((): AnyPgColumn => tasks.id),
    adrId: uuid("adr_id").references((): AnyPgColumn => adrs.id),
    createdBy: uuid("created_by")
      .notNull()
      .references(() => principals.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The claim path: claim-next scans only ready rows, in number order.
    index("tasks_ready_idx").on(t.number).where(sql`${t.status} = 'ready'`),
    index("tasks_offered_idx").on(t.offeredTo).where(sql`${t.status} = 'ready' and ${t.offeredTo} is not null`),
    // The sweeper's path: in-progress leases by expiry.
    index("tasks_lease_idx").on(t.leaseExpiresAt).where(sql`${t.status} = 'in_progress'`),
    index("tasks_status_idx").on(t.status, t.number),
    index("tasks_owner_idx").on(t.ownerId, t.status),
    index("tasks_approver_idx").on(t.approverId),
    index("tasks_parent_idx").on(t.parentId),
    check("tasks_status_check", sql`${t.status} in ('ready', 'in_progress', 'review', 'done', 'cancelled')`),
    check("tasks_title_check", sql`char_length(${t.title}) between 1 and 200 and ${t.title} ~ '\\S'`),
    // The approver is never the owner (DESIGN §3, §6).
    check("tasks_approver_not_owner_check", sql`${t.ownerId} is null or ${t.ownerId} <> ${t.approverId}`),
    // Work starts only with acceptance criteria.
    check("tasks_criteria_check", sql`${t.status} in ('ready', 'cancelled') or coalesce(${t.acceptanceCriteria} ~ '\\S', false)`),
    // A lease exists exactly while the task is in progress; a ready task has no owner.
    check("tasks_lease_check", sql`(${t.status} = 'in_progress') = (${t.leaseExpiresAt} is not null)`),
    check("tasks_owner_check", sql`${t.status} = 'cancelled' or (${t.status} = 'ready') = (${t.ownerId} is null)`),
    // No quiet burials: a cancelled task has its ADR, and only a cancelled one.
    check("tasks_cancel_adr_check", sql`(${t.status} = 'cancelled') = (${t.adrId} is not null)`),
    check("tasks_fence_check", sql`${t.fence} >= 0`),
    check("tasks_output_count_check", sql`${t.outputCount} >= 0`),
    check("tasks_waiting_on_check", sql`${t.waitingOn} >= 0`),
    check("tasks_lease_minutes_check", sql`${t.leaseMinutes} is null or ${t.leaseMinutes} between 1 and 1440`),
  ],
);

/**
 * "This task waits for that one": a task is claimed only once every task it depends on is done
 * (db/functions/quorum_claim_refusal.sql). The edges never close a cycle
 * (db/functions/quorum_task_dependency_acyclic.sql, a trigger).
 */
export const taskDependencies = pgTable(
  "task_dependencies",
  {
    taskId: uuid("task_id")
      .notNull()
      .references(() => tasks.id),
    dependsOnId: uuid("depends_on_id")
      .notNull()
      .references(() => tasks.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.taskId, t.dependsOnId] }),
    index("task_dependencies_depends_on_idx").on(t.dependsOnId),
    check("task_dependencies_not_self_check", sql`${t.taskId} <> ${t.dependsOnId}`),
  ],
);

/** Output items, appended as they are produced; `seq` runs 1..output_count without gaps. */
export const taskOutputs = pgTable(
  "task_outputs",
  {
    taskId: uuid("task_id")
      .notNull()
      .references(() => tasks.id),
    seq: integer("seq").notNull(),
    item: jsonb("item").notNull(),
    /** The fence of the write that produced the item. */
    fence: bigint("fence", { mode: "number" }).notNull(),
    authorId: uuid("author_id")
      .notNull()
      .references(() => principals.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.seq] }), check("task_outputs_seq_check", sql`${t.seq} >= 1`)],
);

/** Evidence on record: what each submission carried, and what each reopen brought that was new. */
export const taskEvidence = pgTable(
  "task_evidence",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    taskId: uuid("task_id")
      .notNull()
      .references(() => tasks.id),
    kind: text("kind", { enum: ["submission", "reopen"] }).notNull(),
    authorId: uuid("author_id")
      .notNull()
      .references(() => principals.id),
    fence: bigint("fence", { mode: "number" }),
    summary: text("summary"),
    evidence: text("evidence").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("task_evidence_task_idx").on(t.taskId, t.id),
    check("task_evidence_kind_check", sql`${t.kind} in ('submission', 'reopen')`),
    check("task_evidence_nonempty_check", sql`${t.evidence} ~ '\\S'`),
    check("task_evidence_summary_check", sql`${t.kind} = 'reopen' or coalesce(${t.summary} ~ '\\S', false)`),
  ],
);

/** Verdicts of the approver; the owner at the time is kept so the journal-free audit reads alone. */
export const taskReviews = pgTable(
  "task_reviews",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    taskId: uuid("task_id")
      .notNull()
      .references(() => tasks.id),
    reviewerId: uuid("reviewer_id")
      .notNull()
      .references(() => principals.id),
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => principals.id),
    verdict: text("verdict", { enum: ["accept", "reject"] }).notNull(),
    reason: text("reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("task_reviews_task_idx").on(t.taskId, t.id),
    check("task_reviews_verdict_check", sql`${t.verdict} in ('accept', 'reject')`),
    check("task_reviews_reviewer_not_owner_check", sql`${t.reviewerId} <> ${t.ownerId}`),
    check("task_reviews_reason_check", sql`${t.verdict} = 'accept' or coalesce(${t.reason} ~ '\\S', false)`),
  ],
);

/**
 * A reviewer's comment on a line (or lines) of a task's diff. Pending until the reviewer's verdict: a request for
 * changes takes the pending comments with it (`review_id`), and they are the rework's evidence.
 */
export const reviewComments = pgTable(
  "review_comments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    taskId: uuid("task_id")
      .notNull()
      .references(() => tasks.id),
    authorId: uuid("author_id")
      .notNull()
      .references(() => principals.id),
    /** The file, as the diff names it (its new path). */
    path: text("path").notNull(),
    /** `new`: a line of the file as the branch has it (added or unchanged); `old`: a removed line, by its old number. */
    side: text("side", { enum: ["new", "old"] }).notNull(),
    line: integer("line").notNull(),
    /** The last line of a range; equal to `line` for one line. */
    endLine: integer("end_line").notNull(),
    body: text("body").notNull(),
    /** The review that sent it (a request for changes, or an approval); null while pending. */
    reviewId: bigint("review_id", { mode: "number" }).references(() => taskReviews.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("review_comments_task_idx").on(t.taskId, t.createdAt),
    check("review_comments_side_check", sql`${t.side} in ('new', 'old')`),
    check("review_comments_lines_check", sql`${t.line} >= 1 and ${t.endLine} >= ${t.line}`),
    check("review_comments_body_check", sql`${t.body} ~ '\\S'`),
  ],
);

/** Architecture decision records; cancelling a task requires one (no quiet burials). */
export const adrs = pgTable(
  "adrs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    taskId: uuid("task_id")
      .notNull()
      .references((): AnyPgColumn => tasks.id),
    title: text("title").notNull(),
    context: text("context").notNull(),
    decision: text("decision").notNull(),
    consequences: text("consequences").notNull(),
    authorId: uuid("author_id")
      .notNull()
      .references(() => principals.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("adrs_task_idx").on(t.taskId),
    check("adrs_nonempty_check", sql`${t.title} ~ '\\S' and ${t.context} ~ '\\S' and ${t.decision} ~ '\\S' and ${t.consequences} ~ '\\S'`),
  ],
);

/**
 * Each task owner's review record: how many of its tasks were reviewed and how many of those reviews accepted,
 * counted from every TaskReviewed by the statement that journals it (db/functions/quorum_tally_review.sql).
 */
export const reviewTallies = pgTable("review_tallies", {
  ownerId: text("owner_id").primaryKey(),
  accepted: integer("accepted").notNull().default(0),
  reviewed: integer("reviewed").notNull().default(0),
});

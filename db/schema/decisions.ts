// The decision board: timeboxed votes that close by quorum, escalate to humans, or adopt their default.
import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { principals } from "./principals";

export const DECISION_STATUSES = ["open", "closed", "escalated", "resolved", "defaulted"] as const;
export type DecisionStatus = (typeof DECISION_STATUSES)[number];

export const decisions = pgTable(
  "decisions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** A short handle for people (D-12) and the cursor of the paginated list. */
    number: integer("number").generatedAlwaysAsIdentity().notNull().unique(),
    question: text("question").notNull(),
    options: text("options").array().notNull(),
    defaultOption: text("default_option").notNull(),
    consequence: text("consequence").notNull(),
    quorum: integer("quorum").notNull(),
    status: text("status", { enum: DECISION_STATUSES }).notNull().default("open"),
    /** The deadline for ballots; past it an undecided vote escalates. */
    timeboxAt: timestamp("timebox_at", { withTimezone: true }).notNull(),
    escalationTimeboxSeconds: integer("escalation_timebox_seconds").notNull(),
    escalatedAt: timestamp("escalated_at", { withTimezone: true }),
    /** Past this, an escalation nobody resolved adopts the default. */
    escalationDeadline: timestamp("escalation_deadline", { withTimezone: true }),
    /** The four-line envelope shown to humans, fixed when the decision escalates. */
    envelope: text("envelope"),
    outcome: text("outcome"),
    openedBy: uuid("opened_by")
      .notNull()
      .references(() => principals.id),
    resolvedBy: uuid("resolved_by").references(() => principals.id),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    /** The last status announced in the room; the sweeper re-posts an announcement that was lost. */
    announcedStatus: text("announced_status"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    check("decisions_status_check", sql`${t.status} in ('open', 'closed', 'escalated', 'resolved', 'defaulted')`),
    check("decisions_options_check", sql`cardinality(${t.options}) between 2 and 10`),
    check("decisions_default_check", sql`${t.defaultOption} = any(${t.options})`),
    check("decisions_quorum_check", sql`${t.quorum} between 1 and 1000`),
    check("decisions_escalation_timebox_check", sql`${t.escalationTimeboxSeconds} > 0`),
    check(
      "decisions_outcome_check",
      sql`(${t.status} in ('closed', 'resolved', 'defaulted')) = (${t.outcome} is not null) and (${t.outcome} is null or ${t.outcome} = any(${t.options}))`,
    ),
    check("decisions_escalation_check", sql`(${t.status} in ('escalated', 'resolved', 'defaulted')) = (${t.escalationDeadline} is not null and ${t.envelope} is not null)`),
    check("decisions_resolver_check", sql`(${t.status} = 'resolved') = (${t.resolvedBy} is not null)`),
    // The sweeper's two scans: open votes by deadline, escalations by their deadline.
    index("decisions_open_timebox_idx").on(t.timeboxAt).where(sql`${t.status} = 'open'`),
    index("decisions_escalated_deadline_idx").on(t.escalationDeadline).where(sql`${t.status} = 'escalated'`),
    // Outcomes whose room announcement is still owed (the sweeper retries a lost one).
    index("decisions_unannounced_idx").on(t.number).where(sql`${t.status} <> 'open' and ${t.announcedStatus} is distinct from ${t.status}`),
    index("decisions_status_number_idx").on(t.status, t.number),
    index("decisions_opened_by_idx").on(t.openedBy),
  ],
);

export const ballots = pgTable(
  "ballots",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    decisionId: uuid("decision_id")
      .notNull()
      .references(() => decisions.id),
    voterId: uuid("voter_id")
      .notNull()
      .references(() => principals.id),
    option: text("option").notNull(),
    reasoning: text("reasoning").notNull(),
    castAt: timestamp("cast_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    // One ballot per voter per decision; a trigger (migration decision_guards) checks option and status.
    uniqueIndex("ballots_one_per_voter_idx").on(t.decisionId, t.voterId),
    index("ballots_voter_idx").on(t.voterId),
    check("ballots_reasoning_check", sql`length(${t.reasoning}) between 1 and 4000`),
  ],
);

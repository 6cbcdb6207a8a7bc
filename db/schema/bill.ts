// The bill's snapshot: a cache of the fold of BudgetDebited (and the budget and run events around it),
// refreshed incrementally up to a settled position of the journal. Never the truth: it can be dropped
// and rebuilt from the journal at any time (domain/bill/snapshot.ts).
import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** How far the snapshot has folded: every bill event at or before (through_tx, through_id) in commit-safe order. */
export const billSnapshot = pgTable(
  "bill_snapshot",
  {
    id: integer("id").primaryKey().default(1),
    /** The writing transaction (xid8, as a number) of the last folded event. */
    throughTx: bigint("through_tx", { mode: "number" }).notNull().default(0),
    throughId: bigint("through_id", { mode: "number" }).notNull().default(0),
    /** Bill events folded so far. */
    folded: bigint("folded", { mode: "number" }).notNull().default(0),
    refreshedAt: timestamp("refreshed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("bill_snapshot_single_row_check", sql`${t.id} = 1`)],
);

/** Token sums per agent, task, run or model, split by model so that each can be priced. */
export const billLines = pgTable(
  "bill_lines",
  {
    scope: text("scope", { enum: ["agent", "task", "run", "model"] }).notNull(),
    key: text("key").notNull(),
    model: text("model").notNull(),
    tokens: bigint("tokens", { mode: "number" }).notNull(),
    inputTokens: bigint("input_tokens", { mode: "number" }).notNull(),
    outputTokens: bigint("output_tokens", { mode: "number" }).notNull(),
    cachedTokens: bigint("cached_tokens", { mode: "number" }).notNull(),
    calls: bigint("calls", { mode: "number" }).notNull(),
    estimatedCalls: bigint("estimated_calls", { mode: "number" }).notNull(),
    /** Of these, what agents outside Quorum reported themselves (UsageReported): Quorum did not measure it. */
    selfReportedTokens: bigint("self_reported_tokens", { mode: "number" }).notNull().default(0),
    selfReportedCalls: bigint("self_reported_calls", { mode: "number" }).notNull().default(0),
    firstEventId: bigint("first_event_id", { mode: "number" }).notNull(),
    lastEventId: bigint("last_event_id", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.scope, t.key, t.model] }),
    index("bill_lines_recent_idx").on(t.scope, t.firstEventId),
    check("bill_lines_scope_check", sql`${t.scope} in ('agent', 'task', 'run', 'model')`),
  ],
);

/** Each run seen: who ran it, for which task, and how it ended (null while running). */
export const billRuns = pgTable(
  "bill_runs",
  {
    runId: text("run_id").primaryKey(),
    agentId: uuid("agent_id"),
    taskId: uuid("task_id"),
    status: text("status"),
    /** When its RunStarted was journalled; null for a run whose start the folded events do not hold. */
    startedAt: timestamp("started_at", { withTimezone: true }),
    firstEventId: bigint("first_event_id", { mode: "number" }).notNull(),
    lastEventId: bigint("last_event_id", { mode: "number" }).notNull(),
  },
  (t) => [index("bill_runs_recent_idx").on(t.firstEventId), index("bill_runs_agent_idx").on(t.agentId, t.firstEventId), index("bill_runs_task_idx").on(t.taskId, t.firstEventId)],
);

/** Each budget: its allowance (as last set) and what its own and its descendants' runs spent. */
export const billBudgets = pgTable("bill_budgets", {
  budgetId: text("budget_id").primaryKey(),
  /** BudgetCreated was folded: owner, parent and label are known. */
  created: boolean("created").notNull().default(false),
  ownerId: text("owner_id"),
  parentId: text("parent_id"),
  label: text("label").notNull().default(""),
  allowance: bigint("allowance", { mode: "number" }),
  spent: bigint("spent", { mode: "number" }).notNull(),
  firstEventId: bigint("first_event_id", { mode: "number" }).notNull(),
});

/** Spend per minute, per agent and model: the chart of spend over time. */
export const billBuckets = pgTable(
  "bill_buckets",
  {
    minute: timestamp("minute", { withTimezone: true }).notNull(),
    /** The debiting agent, or '' for a debit without an actor. */
    agentId: text("agent_id").notNull(),
    model: text("model").notNull(),
    tokens: bigint("tokens", { mode: "number" }).notNull(),
    inputTokens: bigint("input_tokens", { mode: "number" }).notNull(),
    outputTokens: bigint("output_tokens", { mode: "number" }).notNull(),
    cachedTokens: bigint("cached_tokens", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.minute, t.agentId, t.model] })],
);

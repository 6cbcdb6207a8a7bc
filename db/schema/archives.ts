// Retention (DESIGN §4): the months of the journal archived to files by `quorum journal archive`, and what
// the folds that outlive an archived month keep of it. The tallies are written in the archive's own
// transaction and leave with the month's row (on delete cascade) in the restore's, so a fold reads each
// event's share exactly once: from the journal, or from here.
import { sql } from "drizzle-orm";
import { bigint, boolean, check, date, index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** One row per archived month (UTC): where its file is and what it held. */
export const journalArchives = pgTable(
  "journal_archives",
  {
    /** The month's first day, `YYYY-MM-01`. */
    month: date("month", { mode: "string" }).primaryKey(),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    events: integer("events").notNull(),
    firstId: bigint("first_id", { mode: "number" }),
    lastId: bigint("last_id", { mode: "number" }),
    /** The JSONL.gz file as written (an absolute path on the machine that archived it). */
    file: text("file").notNull(),
    /** SHA-256 of the file's bytes, as its `.sha256` sidecar says. */
    sha256: text("sha256").notNull(),
    archivedAt: timestamp("archived_at", { withTimezone: true }).notNull(),
  },
  (t) => [check("journal_archives_month_check", sql`extract(day from ${t.month}) = 1`)],
);

const month = () =>
  date("month", { mode: "string" })
    .notNull()
    .references(() => journalArchives.month, { onDelete: "cascade" });

/** Tokens of the archived BudgetDebited events, per budget they name and model (domain/budgets/spend.ts, lines.ts, task-shares.ts). */
export const journalArchivedDebits = pgTable(
  "journal_archived_debits",
  {
    month: month(),
    budgetId: text("budget_id").notNull(),
    /** The debit's `model`; '' where it named none. */
    model: text("model").notNull(),
    /** The budget was the debit's first (the run's own budget, not an ancestor). */
    nearest: boolean("nearest").notNull(),
    amount: bigint("amount", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.month, t.budgetId, t.model, t.nearest] }), index("journal_archived_debits_budget_idx").on(t.budgetId)],
);

/** The tasks whose events an archived month holds, and who claimed them there (domain/memory/lesson-task.ts, domain/tasks/reopen.ts). */
export const journalArchivedTasks = pgTable(
  "journal_archived_tasks",
  {
    month: month(),
    taskId: uuid("task_id").notNull(),
    claimedBy: text("claimed_by").array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.month, t.taskId] }), index("journal_archived_tasks_task_idx").on(t.taskId)],
);

/** The runs whose events an archived month holds (a run's timeline, replay and resume say where they went). */
export const journalArchivedRuns = pgTable(
  "journal_archived_runs",
  {
    month: month(),
    runId: text("run_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.month, t.runId] }), index("journal_archived_runs_run_idx").on(t.runId)],
);

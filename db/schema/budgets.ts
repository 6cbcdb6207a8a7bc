// Token budgets: rows with an allowance, subdividable; what was spent is a fold of BudgetDebited.
import { sql } from "drizzle-orm";
import { bigint, check, index, pgTable, text, timestamp, uuid, type AnyPgColumn } from "drizzle-orm/pg-core";
import { principals } from "./principals";
import { tasks } from "./tasks";

export const budgets = pgTable(
  "budgets",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The agent whose runs spend it (the system principal for a flight's or a task's budget). */
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => principals.id),
    /** A task's (or a flight goal's) budget: every run on that task draws on it, whoever runs it. */
    taskId: uuid("task_id").references(() => tasks.id),
    /** A sub-budget debits itself and every ancestor; the children of one parent never exceed it. */
    parentId: uuid("parent_id").references((): AnyPgColumn => budgets.id),
    label: text("label").notNull().default(""),
    /** Tokens (input + output) its runs may spend; checked at turn boundaries. */
    allowance: bigint("allowance", { mode: "number" }).notNull(),
    createdBy: uuid("created_by").references(() => principals.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("budgets_owner_idx").on(t.ownerId),
    index("budgets_parent_idx").on(t.parentId),
    index("budgets_task_idx").on(t.taskId),
    check("budgets_allowance_check", sql`${t.allowance} >= 0`),
    check("budgets_not_own_parent_check", sql`${t.parentId} is null or ${t.parentId} <> ${t.id}`),
  ],
);

// Two-layer memory: lessons (episodes, one per source and task) and the principles they earn.
import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";
import { principals } from "./principals";

export const lessons = pgTable(
  "lessons",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The cursor of the paginated list, newest first. */
    number: integer("number").generatedAlwaysAsIdentity().notNull().unique(),
    text: text("text").notNull(),
    /** The normalised text: two lessons with one key are the same lesson (domain/memory/lesson-key.ts). */
    key: text("key").notNull(),
    sourceId: uuid("source_id")
      .notNull()
      .references(() => principals.id),
    // No foreign key: tasks live in another institution's table.
    taskId: uuid("task_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    // A source repeating itself on one task is one episode, never two "independent" ones.
    unique("lessons_once_per_source_task").on(t.key, t.sourceId, t.taskId).nullsNotDistinct(),
    index("lessons_source_idx").on(t.sourceId),
    check("lessons_text_check", sql`length(${t.text}) between 1 and 2000`),
    check("lessons_key_check", sql`length(${t.key}) between 1 and 2000`),
  ],
);

export const principles = pgTable(
  "principles",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    key: text("key").notNull().unique(),
    text: text("text").notNull(),
    /** Set once two independent lessons share the key; never cleared. */
    promotedAt: timestamp("promoted_at", { withTimezone: true }),
    pinnedBy: uuid("pinned_by").references(() => principals.id),
    pinnedAt: timestamp("pinned_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [check("principles_pin_check", sql`(${t.pinnedBy} is null) = (${t.pinnedAt} is null)`), check("principles_text_check", sql`length(${t.text}) between 1 and 2000`)],
);

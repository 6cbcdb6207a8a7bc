// Flights: a goal given to the built-in team, the repository it works in, and its tasks.
import { sql } from "drizzle-orm";
import { check, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tasks } from "./tasks";

export const flights = pgTable(
  "flights",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    goal: text("goal").notNull(),
    /** The git repository (on the workers' machine) the team edits; `main` is the integrated truth. */
    repo: text("repo").notNull(),
    /** The umbrella task the orchestrator owns; its children are the team's tasks. */
    goalTaskId: uuid("goal_task_id")
      .notNull()
      .references(() => tasks.id),
    /** How the roles think: `scripted` (no model configured) or the model's name. */
    mode: text("mode").notNull(),
    status: text("status", { enum: ["planning", "working", "green", "red"] })
      .notNull()
      .default("planning"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("flights_status_check", sql`${t.status} in ('planning', 'working', 'green', 'red')`)],
);

export const flightTasks = pgTable(
  "flight_tasks",
  {
    taskId: uuid("task_id")
      .primaryKey()
      .references(() => tasks.id),
    flightId: uuid("flight_id")
      .notNull()
      .references(() => flights.id),
    /** Set once the integrator merged the accepted work into `main`. */
    integratedAt: timestamp("integrated_at", { withTimezone: true }),
    /** Set once the tester ran the suite on `main` after that integration. */
    testedAt: timestamp("tested_at", { withTimezone: true }),
    /** When the reviewer was re-asked (once) because it stayed silent past the deadline. */
    reaskedAt: timestamp("reasked_at", { withTimezone: true }),
    escalatedAt: timestamp("escalated_at", { withTimezone: true }),
  },
  (t) => [index("flight_tasks_flight_idx").on(t.flightId)],
);

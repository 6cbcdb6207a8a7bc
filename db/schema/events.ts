// The journal: append-only (a trigger refuses UPDATE and DELETE), the source of truth.
import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

export const events = pgTable(
  "events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    v: integer("v").notNull().default(1),
    t: timestamp("t", { withTimezone: true }).notNull().defaultNow(),
    kind: text("kind").notNull(),
    actor: uuid("actor"),
    runId: text("run_id"),
    taskId: uuid("task_id"),
    turn: integer("turn"),
    data: jsonb("data").notNull().default({}),
    // tx_id (xid8, the writing transaction) is added by a custom migration; see listJournal.
  },
  (t) => [
    index("events_kind_idx").on(t.kind, t.id),
    index("events_actor_idx").on(t.actor, t.id),
    index("events_task_idx").on(t.taskId, t.id),
    index("events_run_idx").on(t.runId, t.id),
    // The MAST monitor journals each finding once (its key carries the severity: a finding that got worse is new).
    uniqueIndex("events_diagnosis_key_idx").on(sql`(${t.data}->>'key')`).where(sql`${t.kind} = 'DiagnosisFound'`),
  ],
);

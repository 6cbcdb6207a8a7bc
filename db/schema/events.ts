// The journal: append-only (a trigger refuses UPDATE and DELETE), the source of truth. Partitioned by month
// of `t` (migration 0037, DESIGN §4): a partitioned table's key must hold the partition key, so the primary
// key is (id, t); ids stay unique because only events_id_seq hands them out.
import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";

export const events = pgTable(
  "events",
  {
    id: bigserial("id", { mode: "number" }).notNull(),
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
    primaryKey({ name: "events_pkey", columns: [t.id, t.t] }),
    index("events_kind_idx").on(t.kind, t.id),
    index("events_actor_idx").on(t.actor, t.id),
    index("events_task_idx").on(t.taskId, t.id),
    index("events_run_idx").on(t.runId, t.id),
    // The direct-message rule (domain/journal/visibility.ts) asks, of a run's context event, whether an earlier
    // turn read someone else's direct mail: only the ModelCalled events that delivered mail can say yes.
    // An agent's page lists its latest gate refusals (domain/roster/agent-detail.ts): by actor within the kind,
    // not the intersection of all its events with every refusal in the journal.
    index("events_gate_rejected_idx").on(t.actor, t.id).where(sql`${t.kind} = 'GateRejected'`),
    index("events_run_mail_idx").on(t.runId, t.turn).where(sql`${t.kind} = 'ModelCalled' and ${t.data}->'mail' <> '[]'::jsonb`),
    // The MAST monitor's findings by key (journalled once each: the diagnosis_keys table holds that, since a
    // partitioned table's unique index would have to hold `t`).
    index("events_diagnosis_key_idx").on(sql`(${t.data}->>'key')`).where(sql`${t.kind} = 'DiagnosisFound'`),
  ],
);

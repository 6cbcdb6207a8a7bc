// The MAST monitor (domain/diagnosis/monitor.ts): where it has read the journal to, and the keys of the findings
// it journalled. The findings themselves live in the journal (DiagnosisFound); a key is written in the same
// transaction as its event, and its primary key holds "once per key" — the partitioned journal cannot (./events.ts).
import { sql } from "drizzle-orm";
import { bigint, check, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { principals } from "./principals";

export const diagnosisWatermark = pgTable(
  "diagnosis_watermark",
  {
    id: integer("id").primaryKey().default(1),
    /** The writing transaction (xid8, as a number) and the id of the last event read, in commit-safe order. */
    throughTx: bigint("through_tx", { mode: "number" }).notNull().default(0),
    throughId: bigint("through_id", { mode: "number" }).notNull().default(0),
    sweptAt: timestamp("swept_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("diagnosis_watermark_single_row_check", sql`${t.id} = 1`)],
);

export const diagnosisKeys = pgTable(
  "diagnosis_keys",
  {
    /** The finding's key and severity (journalKeyOf): a finding that got worse is a new key. */
    key: text("key").primaryKey(),
    flightId: uuid("flight_id").notNull(),
  },
  (t) => [index("diagnosis_keys_flight_idx").on(t.flightId)],
);

export const FINDING_VERDICTS = ["acknowledged", "not_a_failure"] as const;

/** A human's answer to a finding: seen (with a note), or not a failure at all. An answered finding leaves the desk's count. */
export const findingAnswers = pgTable(
  "finding_answers",
  {
    /** The finding's key without its severity, as the desk lists it (mode and the event that first showed it). */
    key: text("key").primaryKey(),
    flightId: uuid("flight_id").notNull(),
    verdict: text("verdict", { enum: FINDING_VERDICTS }).notNull(),
    note: text("note"),
    answeredBy: uuid("answered_by")
      .notNull()
      .references(() => principals.id),
    answeredAt: timestamp("answered_at", { withTimezone: true }).notNull(),
  },
  (t) => [check("finding_answers_verdict_check", sql`${t.verdict} in ('acknowledged', 'not_a_failure')`), index("finding_answers_flight_idx").on(t.flightId)],
);

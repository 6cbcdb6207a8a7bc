// The MAST monitor (server/diagnosis/monitor.ts): where it has read the journal to. Its findings live in the
// journal itself (DiagnosisFound), once per key, held by a unique index on events (./events.ts).
import { sql } from "drizzle-orm";
import { bigint, check, integer, pgTable, timestamp } from "drizzle-orm/pg-core";

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

// Path reservations: glob patterns an agent holds (exclusive or shared) under a lease, with a fence.
import { sql } from "drizzle-orm";
import { bigserial, check, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { principals } from "./principals";
import { tasks } from "./tasks";

export const RESERVATION_MODES = ["exclusive", "shared"] as const;
export type ReservationMode = (typeof RESERVATION_MODES)[number];

export const RESERVATION_STATUSES = ["active", "released", "expired", "force_released"] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];

export const reservations = pgTable(
  "reservations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /**
     * The fencing token and a short handle: one sequence for every grant, so a later grant
     * of a path always carries a larger fence than any earlier one.
     */
    fence: bigserial("fence", { mode: "number" }).notNull().unique(),
    /** The workspace the patterns are relative to (a repository); overlap is decided within one scope. */
    scope: text("scope").notNull().default("default"),
    holderId: uuid("holder_id")
      .notNull()
      .references(() => principals.id),
    patterns: text("patterns").array().notNull(),
    mode: text("mode", { enum: RESERVATION_MODES }).notNull(),
    reason: text("reason").notNull(),
    taskId: uuid("task_id").references(() => tasks.id),
    status: text("status", { enum: RESERVATION_STATUSES }).notNull().default("active"),
    ttlSeconds: integer("ttl_seconds").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
    /** When and by whom it stopped being active (release, sweep, force-release), and why. */
    endedAt: timestamp("ended_at", { withTimezone: true }),
    endedBy: uuid("ended_by").references(() => principals.id),
    endReason: text("end_reason"),
  },
  (t) => [
    // The conflict check reads the live reservations of one scope; the sweeper reads them by expiry.
    index("reservations_active_idx").on(t.scope, t.expiresAt).where(sql`${t.status} = 'active'`),
    index("reservations_sweep_idx").on(t.expiresAt).where(sql`${t.status} = 'active'`),
    index("reservations_holder_idx").on(t.holderId, t.status),
    index("reservations_task_idx").on(t.taskId),
    check("reservations_mode_check", sql`${t.mode} in ('exclusive', 'shared')`),
    check("reservations_status_check", sql`${t.status} in ('active', 'released', 'expired', 'force_released')`),
    check("reservations_patterns_check", sql`cardinality(${t.patterns}) between 1 and 32`),
    check("reservations_reason_check", sql`${t.reason} ~ '\\S'`),
    check("reservations_ttl_check", sql`${t.ttlSeconds} between 60 and 86400`),
    check("reservations_scope_check", sql`${t.scope} ~ '^[A-Za-z0-9][A-Za-z0-9_.:/-]{0,127}$'`),
    // Ended exactly when no longer active; a force-release always says why.
    check("reservations_ended_check", sql`(${t.status} = 'active') = (${t.endedAt} is null)`),
    check("reservations_force_reason_check", sql`${t.status} <> 'force_released' or coalesce(${t.endReason} ~ '\\S', false)`),
  ],
);

// Lease length: per task when set, else the configured default (domain/config.ts reads QUORUM_LEASE_SECONDS
// and QUORUM_LEASE_MINUTES once; 30 minutes when neither is set).
import { sql, type SQL } from "drizzle-orm";
import { tasks } from "../../db/schema";
import { defaultLeaseSeconds } from "../config";

/** The part of a task row a lease reads (no import of the view, which reads stalls from here). */
type LeaseSettings = { leaseMinutes: number | null };

/** The default lease in seconds, for a task that sets no length of its own. */
export function globalLeaseSeconds(): number {
  return defaultLeaseSeconds();
}

export function leaseSecondsOf(task: LeaseSettings): number {
  return task.leaseMinutes === null ? globalLeaseSeconds() : task.leaseMinutes * 60;
}

export function leaseEnd(task: LeaseSettings, now: Date): Date {
  return new Date(now.getTime() + leaseSecondsOf(task) * 1_000);
}

/** The same rule inside one SQL statement, where the row is not yet in hand (db/functions/quorum_lease_length.sql). */
export function leaseLengthSql(): SQL {
  return sql`quorum_lease_length(${tasks.leaseMinutes}, ${globalLeaseSeconds()}::int)`;
}

// When a lease holder counts as stalled: pure arithmetic on a task row, shared by the roster, the
// board's task view and the stall sweeper (domain/roster/stall.ts, whose SQL says the same).

export type LeaseRow = { updatedAt: Date; leaseExpiresAt: Date | null; leaseMinutes: number | null };

/**
 * When the holder last showed life: the later of its last write to the task (claim, heartbeat and
 * output all stamp `updated_at`) and its last lease renewal (the lease's end minus its length).
 */
export function lastActivityOf(task: LeaseRow): Date {
  const lease = leaseSecondsOf(task) * 1_000;
  const renewed = task.leaseExpiresAt ? task.leaseExpiresAt.getTime() - lease : 0;
  return new Date(Math.max(task.updatedAt.getTime(), renewed));
}

/** When an in-progress task's holder counts as stalled if nothing happens first (null: no lease). */
export function stallsAt(task: LeaseRow): Date | null {
  if (!task.leaseExpiresAt) return null;
  return new Date(lastActivityOf(task).getTime() + (leaseSecondsOf(task) * 1_000) / 2);
}

// Lease length: per task when set, else QUORUM_LEASE_MINUTES, else 30 minutes.
import { sql, type SQL } from "drizzle-orm";
import { tasks } from "../../db/schema";

/** The part of a task row a lease reads (no import of the view, which reads stalls from here). */
type LeaseSettings = { leaseMinutes: number | null };

export const DEFAULT_LEASE_MINUTES = 30;

/** Read at each call (not cached at import), so an operator's change applies without a code path of its own. */
export function globalLeaseMinutes(): number {
  const raw = Number(process.env.QUORUM_LEASE_MINUTES);
  return Number.isInteger(raw) && raw >= 1 && raw <= 1440 ? raw : DEFAULT_LEASE_MINUTES;
}

export function leaseMinutesOf(task: LeaseSettings): number {
  return task.leaseMinutes ?? globalLeaseMinutes();
}

export function leaseEnd(task: LeaseSettings, now: Date): Date {
  return new Date(now.getTime() + leaseMinutesOf(task) * 60_000);
}

/** The same rule inside one SQL statement (claim-next), where the row is not yet in hand. */
export function leaseEndSql(now: Date): SQL {
  return sql`${now.toISOString()}::timestamptz + make_interval(mins => coalesce(${tasks.leaseMinutes}, ${globalLeaseMinutes()}))`;
}

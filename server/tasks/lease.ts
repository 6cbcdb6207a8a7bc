// Lease length: per task when set, else QUORUM_LEASE_SECONDS (for tests: leases of seconds), else
// QUORUM_LEASE_MINUTES, else 30 minutes.
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

/**
 * The default lease in seconds. QUORUM_LEASE_SECONDS (5 to 86,400) is for tests that cut hosts off for
 * longer than two leases and must not wait minutes (chaos/hosts); it wins over QUORUM_LEASE_MINUTES.
 */
export function globalLeaseSeconds(): number {
  const raw = Number(process.env.QUORUM_LEASE_SECONDS);
  return Number.isInteger(raw) && raw >= 5 && raw <= 86_400 ? raw : globalLeaseMinutes() * 60;
}

export function leaseSecondsOf(task: LeaseSettings): number {
  return task.leaseMinutes === null ? globalLeaseSeconds() : task.leaseMinutes * 60;
}

export function leaseEnd(task: LeaseSettings, now: Date): Date {
  return new Date(now.getTime() + leaseSecondsOf(task) * 1_000);
}

/** The same rule inside one SQL statement, where the row is not yet in hand: the task's own length, else the default. */
export function leaseLengthSql(): SQL {
  return sql`make_interval(secs => coalesce(${tasks.leaseMinutes} * 60, ${globalLeaseSeconds()}::int))`;
}

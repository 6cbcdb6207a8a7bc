// When a lease holder counts as stalled: pure arithmetic on a task row, shared by the roster, the
// board's task view and the stall sweeper (whose SQL says the same).
import { leaseSecondsOf } from "../tasks/lease";

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

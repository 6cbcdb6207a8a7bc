// A flight's goal is held by its orchestrator for as long as the flight works. The orchestrator
// took it when planning began, and nobody runs on the goal while the coders work, so nothing renewed its
// lease: past it, the sweeper put the goal back in ready and a green flight never reached its human. The
// team's worker renews it instead (agents/team/worker.ts), from the flight's own state — a lease still, so a
// worker that dies lets the goal go back to its human as any holder's task would.
import { and, eq, inArray, sql } from "drizzle-orm";
import { flights, tasks } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import type { Principal } from "../principal";
import { heartbeat } from "../tasks/heartbeat";
import { leaseLengthSql } from "../tasks/lease";

/**
 * Renewed once a quarter of its lease has passed without a sign of life, looked at every tenth of a lease: a
 * renewal comes by 0.35 of it, well before the stall sweeper's half (a third plus a sixth left none).
 */
const RENEW_AFTER = 4;
const CHECKS_PER_LEASE = 10;

/** How often the team's worker calls holdFlightGoals for a lease of `leaseSeconds` (between 0.5 and 5 s). */
export function goalHoldEveryMs(leaseSeconds: number): number {
  return Math.max(500, Math.min(5_000, (leaseSeconds * 1_000) / CHECKS_PER_LEASE));
}

/**
 * Renews the lease on each goal `orchestrator` holds for a flight that works (or is green, waiting to be
 * delivered) once a quarter of it has gone by; returns how many it renewed. A goal lost meanwhile is skipped.
 */
export async function holdFlightGoals(db: Db, orchestrator: Principal, clock: Clock): Promise<number> {
  const now = sql`${clock.now().toISOString()}::timestamptz`;
  const length = leaseLengthSql();
  const due = await db
    .select({ id: tasks.id, fence: tasks.fence })
    .from(tasks)
    .innerJoin(flights, eq(flights.goalTaskId, tasks.id))
    .where(
      and(
        inArray(flights.status, ["working", "green"]),
        eq(tasks.status, "in_progress"),
        eq(tasks.ownerId, orchestrator.id),
        sql`greatest(${tasks.updatedAt}, ${tasks.leaseExpiresAt} - ${length}) + ${length} / ${RENEW_AFTER} <= ${now}`,
      ),
    );
  let renewed = 0;
  for (const goal of due) {
    try {
      await heartbeat(db, orchestrator, goal.id, { fence: goal.fence }, clock);
      renewed++;
    } catch {
      // Taken back, cancelled or delivered between the read and the renewal: not ours to hold any more.
    }
  }
  return renewed;
}

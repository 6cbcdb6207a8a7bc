// The reservation sweeper: leases that ran out become `expired`, each journalled as ReservationExpired.
import { and, asc, eq, lte, sql } from "drizzle-orm";
import { reservations } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { appendEvent } from "../journal/append";
import { getSystemPrincipal } from "../principals/create-principal";

/** One sweeper at a time across every app instance (its own key in the reservations' lock namespace). */
const SWEEP_LOCK = sql`hashtext('quorum:reservation-sweep')`;
const BATCH = 200;

export interface ReservationSweep {
  /** False when another instance held the sweep lock; nothing was touched. */
  swept: boolean;
  expired: { reservationId: string; fence: number; holderId: string; patterns: string[] }[];
}

/**
 * An expired reservation stops counting at its expiry whether or not it was swept (the conflict
 * check reads `expires_at`); the sweep makes the status say so and journals it.
 */
export async function sweepReservations(db: Db, clock: Clock): Promise<ReservationSweep> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [{ locked }] = await tx.execute<{ locked: boolean }>(sql`select pg_try_advisory_xact_lock(${SWEEP_LOCK}) as locked`);
    if (!locked) return { swept: false, expired: [] };
    // SKIP LOCKED: a reservation its holder is renewing right now is left for the next pass.
    const due = await tx
      .select()
      .from(reservations)
      .where(and(eq(reservations.status, "active"), lte(reservations.expiresAt, now)))
      .orderBy(asc(reservations.expiresAt))
      .limit(BATCH)
      .for("update", { skipLocked: true });
    if (due.length === 0) return { swept: true, expired: [] };
    const system = await getSystemPrincipal(tx);
    for (const row of due) {
      await tx.update(reservations).set({ status: "expired", endedAt: now, updatedAt: now }).where(eq(reservations.id, row.id));
      await appendEvent(tx, {
        kind: "ReservationExpired",
        actor: system.id,
        taskId: row.taskId,
        t: now,
        data: { reservationId: row.id, fence: row.fence, scope: row.scope, patterns: row.patterns, holderId: row.holderId, expiresAt: row.expiresAt.toISOString() },
      });
    }
    return { swept: true, expired: due.map((r) => ({ reservationId: r.id, fence: r.fence, holderId: r.holderId, patterns: r.patterns })) };
  });
}

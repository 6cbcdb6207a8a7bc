// Renews the holder's lease on a reservation; the fence proves it still holds it.
import { eq } from "drizzle-orm";
import { z } from "zod";
import { reservations } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { describeHolders, findConflicts, lockScope } from "./conflicts";
import { requireHolderWrite, reservationFenceField, ttlField } from "./guards";
import { MAX_AGENT_TTL_SECONDS, requireAgentTtl } from "./limits";
import { lockReservation, readReservationView, type ReservationView } from "./view";

export const renewReservationInput = z.strictObject({
  fence: reservationFenceField,
  /** A new lease length from now (default: the one it was granted with). */
  ttlSeconds: ttlField.optional(),
});
export type RenewReservationInput = z.infer<typeof renewReservationInput>;

/**
 * A lease that ran out but was not swept yet may be renewed, unless someone else has meanwhile
 * reserved an overlapping path (an expired reservation does not stand in anyone's way).
 */
export async function renewReservation(db: Db, caller: Principal, id: string, input: RenewReservationInput, clock: Clock): Promise<ReservationView> {
  const now = clock.now();
  if (input.ttlSeconds !== undefined) requireAgentTtl(caller, input.ttlSeconds);
  return db.transaction(async (tx) => {
    // Scope lock first, then the row: the same order as a grant, so the two never deadlock.
    const { scope } = await readReservationView(tx, id);
    await lockScope(tx, scope);
    const row = await lockReservation(tx, id);
    requireHolderWrite(row, caller, input.fence, "renew");
    if (row.expiresAt.getTime() <= now.getTime()) {
      const holders = await findConflicts(tx, { scope, patterns: row.patterns, mode: row.mode, callerId: caller.id, now });
      if (holders.length > 0) {
        throw fail.conflict("reservation", "reserved", `R-${row.fence} lapsed and its paths were taken: ${describeHolders(holders)}`, { holders });
      }
    }
    // An agent renewing a lease longer than its cap (granted before the cap existed) renews within the cap.
    const ttlSeconds = input.ttlSeconds ?? (caller.kind === "agent" ? Math.min(row.ttlSeconds, MAX_AGENT_TTL_SECONDS) : row.ttlSeconds);
    const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
    await tx.update(reservations).set({ ttlSeconds, expiresAt, updatedAt: now }).where(eq(reservations.id, row.id));
    await appendEvent(tx, {
      kind: "ReservationRenewed",
      actor: caller.id,
      taskId: row.taskId,
      t: now,
      data: { reservationId: row.id, fence: row.fence, scope, expiresAt: expiresAt.toISOString() },
    });
    return readReservationView(tx, row.id);
  });
}

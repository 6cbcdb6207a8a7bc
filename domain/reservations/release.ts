// The holder lets a reservation go: its paths are free at once.
import { eq } from "drizzle-orm";
import { z } from "zod";
import { reservations } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { requireHolderWrite, reservationFenceField } from "./guards";
import { lockReservation, readReservationView, type ReservationView } from "./view";

export const releaseReservationInput = z.strictObject({ fence: reservationFenceField });
export type ReleaseReservationInput = z.infer<typeof releaseReservationInput>;

export async function releaseReservation(db: Db, caller: Principal, id: string, input: ReleaseReservationInput, clock: Clock): Promise<ReservationView> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const row = await lockReservation(tx, id);
    requireHolderWrite(row, caller, input.fence, "release");
    await tx.update(reservations).set({ status: "released", endedAt: now, endedBy: caller.id, updatedAt: now }).where(eq(reservations.id, row.id));
    await appendEvent(tx, {
      kind: "ReservationReleased",
      actor: caller.id,
      taskId: row.taskId,
      t: now,
      data: { reservationId: row.id, fence: row.fence, scope: row.scope, patterns: row.patterns },
    });
    return readReservationView(tx, row.id);
  });
}

// A human ends someone's stale reservation, with a reason, and the holder is told directly.
import { eq } from "drizzle-orm";
import { z } from "zod";
import { reservations } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { appendEvent } from "../journal/append";
import { getSystemPrincipal } from "../principals/create-principal";
import type { Principal } from "../principal";
import { postMessage } from "../rooms/post-message";
import { DEFAULT_ROOM } from "../rooms/rooms";
import { lockReservation, readReservationView, type ReservationView } from "./view";
import { quoted } from "../quoted-text";

export const forceReleaseInput = z.strictObject({
  reason: z.string().trim().min(1, "say why the reservation is ended").max(1000),
});
export type ForceReleaseInput = z.infer<typeof forceReleaseInput>;

export type ForceReleaseResult = ReservationView & { holderNotified: boolean };

export async function forceReleaseReservation(db: Db, caller: Principal, id: string, input: ForceReleaseInput, clock: Clock): Promise<ForceReleaseResult> {
  if (caller.kind !== "human") throw fail.forbidden("reservation", "only humans force-release a reservation; its holder releases it itself");
  const now = clock.now();
  const view = await db.transaction(async (tx) => {
    const row = await lockReservation(tx, id);
    if (row.status !== "active") {
      throw fail.conflict("reservation", "wrong_status", `R-${row.fence} is already ${row.status.replace("_", "-")}`, { status: row.status });
    }
    await tx.update(reservations).set({ status: "force_released", endedAt: now, endedBy: caller.id, endReason: input.reason, updatedAt: now }).where(eq(reservations.id, row.id));
    await appendEvent(tx, {
      kind: "ReservationForceReleased",
      actor: caller.id,
      taskId: row.taskId,
      t: now,
      data: { reservationId: row.id, fence: row.fence, scope: row.scope, patterns: row.patterns, holderId: row.holderId, reason: input.reason },
    });
    return readReservationView(tx, row.id);
  });
  // The notice follows the commit (postMessage is its own transaction); the release stands either way.
  let holderNotified = false;
  try {
    const system = await getSystemPrincipal(db);
    await postMessage(
      db,
      system,
      DEFAULT_ROOM,
      {
        body: `Your reservation R-${view.fence} (${view.patterns.map((p) => quoted(p, 80)).join(", ")}) was force-released by @${caller.name}: ${quoted(input.reason, 400)}`,
        performative: "INFORM",
        to: view.holderId,
        payload: { reservationId: view.id, fence: view.fence, status: view.status },
      },
      clock,
    );
    holderNotified = true;
  } catch (error) {
    console.error(`could not tell ${view.holderName} that R-${view.fence} was force-released`, error);
  }
  return { ...view, holderNotified };
}

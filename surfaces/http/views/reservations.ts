// Path reservations: a reservation, a check of paths against the ones held, and who holds what a
// refused reservation collided with (also used by the `reserved` refusal in surfaces/http/errors.ts).
import { z } from "zod";
import type { PathCheck } from "@/domain/reservations/check-paths";
import type { ReservationView } from "@/domain/reservations/view";
import { open, uuid, when, int } from "./base";

const reservationMode = z.enum(["exclusive", "shared"]);
export const reservation = open({
  id: uuid,
  fence: int,
  scope: z.string(),
  holderId: uuid,
  holderName: z.string(),
  patterns: z.array(z.string()),
  mode: reservationMode,
  reason: z.string(),
  taskId: uuid.nullable(),
  status: z.enum(["active", "released", "expired", "force_released"]),
  ttlSeconds: int,
  expiresAt: when,
  createdAt: when,
  updatedAt: when,
  endedAt: when.nullable(),
  endedBy: uuid.nullable(),
  endReason: z.string().nullable(),
}) satisfies z.ZodType<ReservationView>;
const pathHold = open({
  path: z.string(),
  pattern: z.string(),
  reservationId: uuid,
  fence: int,
  holderId: uuid,
  holderName: z.string(),
  mode: reservationMode,
  reason: z.string(),
  expiresAt: when,
});
export const pathCheck = open({ ok: z.boolean(), blocked: z.array(pathHold), shared: z.array(pathHold) }) satisfies z.ZodType<PathCheck>;
/** Who holds what a reservation collided with (the `holders` of a 409 `reserved`). */
export const reservationHolder = open({
  reservationId: uuid,
  fence: int,
  holderId: uuid,
  holderName: z.string(),
  mode: reservationMode,
  patterns: z.array(z.string()),
  expiresAt: when,
  overlaps: z.array(open({ requested: z.string(), held: z.string(), example: z.string().optional() })),
});

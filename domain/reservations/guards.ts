// The reservations' refusals: who may reserve, hold and end one, and what a stale fence means.
import { z } from "zod";
import { fail } from "../errors";
import type { Principal } from "../principal";
import type { ReservationRow } from "./view";

export const DEFAULT_SCOPE = "default";
export const DEFAULT_TTL_SECONDS = 30 * 60;

/** The workspace patterns are relative to, e.g. a repository name (`quorum`, `acme/api`). */
export const scopeField = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:/-]{0,127}$/, "1–128 letters, digits and _ . : / -");
export const ttlField = z.int().min(60, "at least 60 seconds").max(86_400, "at most 24 hours");
export const reservationFenceField = z.int().min(1);

export function requireReserver(caller: Principal): void {
  if (caller.kind === "system") throw fail.forbidden("reservation", "the system principal announces; it does not reserve paths");
}

/**
 * Only the holder renews or releases, with the fence it was granted. A reservation that expired
 * (swept), was released or was force-released is gone: `stale_fence` tells its old holder to stop.
 */
export function requireHolderWrite(row: ReservationRow, caller: Principal, fence: number, action: string): void {
  if (row.holderId !== caller.id) throw fail.forbidden("reservation", `only the holder of R-${row.fence} may ${action} it`);
  if (row.fence !== fence || row.status !== "active") {
    const why = row.fence !== fence ? `R-${row.fence} carries fence ${row.fence}` : `R-${row.fence} is ${row.status.replace("_", "-")}`;
    throw fail.conflict("reservation", "stale_fence", `cannot ${action}: fence ${fence} no longer holds it (${why})`, {
      fence: row.fence,
      status: row.status,
    });
  }
}

// Lists reservations: live ones by default, filtered by holder, task or scope, newest grant first.
import { and, desc, eq, gt, lt, lte, or } from "drizzle-orm";
import { z } from "zod";
import { RESERVATION_STATUSES, reservations } from "../../db/schema";
import type { Executor } from "../../db/client";
import type { Page } from "../page";
import type { Principal } from "../principal";
import { scopeField } from "./guards";
import { selectReservationViews, toReservationView, type ReservationView } from "./view";

export const listReservationsQuery = z.strictObject({
  /** `active` (default) means live: active and not yet expired; `all` lists every status. */
  status: z.enum([...RESERVATION_STATUSES, "all"]).optional(),
  /** A principal id, or `me`. */
  holder: z.union([z.uuid(), z.literal("me")]).optional(),
  taskId: z.uuid().optional(),
  scope: scopeField.optional(),
  /** The next page: grants with a fence below this one. */
  before: z.coerce.number().int().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});
export type ListReservationsQuery = z.infer<typeof listReservationsQuery>;

export async function listReservations(db: Executor, caller: Principal, query: ListReservationsQuery, now: Date): Promise<Page<ReservationView>> {
  const limit = query.limit ?? 100;
  const status = query.status ?? "active";
  const byStatus =
    status === "all"
      ? undefined
      : status === "active"
        ? and(eq(reservations.status, "active"), gt(reservations.expiresAt, now))
        : status === "expired"
          ? or(eq(reservations.status, "expired"), and(eq(reservations.status, "active"), lte(reservations.expiresAt, now)))
          : eq(reservations.status, status);
  const holderId = query.holder === "me" ? caller.id : query.holder;
  const rows = await selectReservationViews(db)
    .where(
      and(
        byStatus,
        holderId ? eq(reservations.holderId, holderId) : undefined,
        query.taskId ? eq(reservations.taskId, query.taskId) : undefined,
        query.scope ? eq(reservations.scope, query.scope) : undefined,
        query.before !== undefined ? lt(reservations.fence, query.before) : undefined,
      ),
    )
    .orderBy(desc(reservations.fence))
    .limit(limit + 1);
  const items = rows.slice(0, limit).map(toReservationView);
  return rows.length > limit ? { items, next: items[items.length - 1].fence } : { items };
}

// The JSON shape of a reservation, as the API, MCP and the pages see it, and how to read and lock one.
import { eq } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { principals, reservations, type ReservationMode, type ReservationStatus } from "../../db/schema";
import type { Executor } from "../../db/client";
import { fail } from "../errors";
import { isUuid } from "../ids";

export type ReservationRow = typeof reservations.$inferSelect;

export interface ReservationView {
  id: string;
  /** The fencing token (and handle R-n): renew and release carry it. */
  fence: number;
  scope: string;
  holderId: string;
  holderName: string;
  patterns: string[];
  mode: ReservationMode;
  reason: string;
  taskId: string | null;
  status: ReservationStatus;
  ttlSeconds: number;
  expiresAt: string;
  createdAt: string;
  updatedAt: string;
  endedAt: string | null;
  endedBy: string | null;
  endReason: string | null;
}

const holder = alias(principals, "holder");

export function selectReservationViews(db: Executor) {
  return db.select({ row: reservations, holderName: holder.name }).from(reservations).innerJoin(holder, eq(holder.id, reservations.holderId)).$dynamic();
}

export function toReservationView({ row, holderName }: { row: ReservationRow; holderName: string }): ReservationView {
  return {
    id: row.id,
    fence: row.fence,
    scope: row.scope,
    holderId: row.holderId,
    holderName,
    patterns: row.patterns,
    mode: row.mode,
    reason: row.reason,
    taskId: row.taskId,
    status: row.status,
    ttlSeconds: row.ttlSeconds,
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
    endedBy: row.endedBy,
    endReason: row.endReason,
  };
}

function assertReservationId(id: string): void {
  if (!isUuid(id)) throw fail.notFound("reservation", `no reservation with id '${id.slice(0, 64)}'`);
}

export async function readReservationView(db: Executor, id: string): Promise<ReservationView> {
  assertReservationId(id);
  const [row] = await selectReservationViews(db).where(eq(reservations.id, id));
  if (!row) throw fail.notFound("reservation", `no reservation with id '${id}'`);
  return toReservationView(row);
}

/** Locks the reservation row for the rest of the transaction. */
export async function lockReservation(tx: Executor, id: string): Promise<ReservationRow> {
  assertReservationId(id);
  const [row] = await tx.select().from(reservations).where(eq(reservations.id, id)).for("update");
  if (!row) throw fail.notFound("reservation", `no reservation with id '${id}'`);
  return row;
}

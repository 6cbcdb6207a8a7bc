// The reservation check: one scope at a time (an advisory lock), and which live holders a request collides with.
import { and, eq, gt, ne, sql } from "drizzle-orm";
import { reservations, type ReservationMode } from "../../db/schema";
import type { Executor } from "../../db/client";
import { globsOverlap } from "./overlap";
import { selectReservationViews } from "./view";

/** The advisory-lock namespace of reservations (decisions, commitments and reminders use 8451101–3). */
export const RESERVATION_LOCK = 8451110;

/**
 * Serialises every grant in one scope: two agents racing for the same path queue here, and the
 * second sees the first's row. Glob overlap cannot be an exclusion constraint, so the lock is the rule.
 */
export async function lockScope(tx: Executor, scope: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${RESERVATION_LOCK}, hashtext(${scope}))`);
}

export interface OverlapDetail {
  requested: string;
  held: string;
  /** A path both patterns match, when one was found. */
  example?: string;
}

/** A live reservation of someone else that a request collides with: who, what, until when. */
export interface ReservationHolder {
  reservationId: string;
  fence: number;
  holderId: string;
  holderName: string;
  mode: ReservationMode;
  patterns: string[];
  reason: string;
  taskId: string | null;
  expiresAt: string;
  overlaps: OverlapDetail[];
}

export interface ConflictQuery {
  scope: string;
  patterns: string[];
  mode: ReservationMode;
  callerId: string;
  now: Date;
}

/** Live (active, unexpired) reservations of others in the scope whose patterns overlap, unless both sides are shared. */
export async function findConflicts(tx: Executor, query: ConflictQuery): Promise<ReservationHolder[]> {
  const live = await selectReservationViews(tx).where(
    and(eq(reservations.scope, query.scope), eq(reservations.status, "active"), gt(reservations.expiresAt, query.now), ne(reservations.holderId, query.callerId)),
  );
  const holders: ReservationHolder[] = [];
  for (const { row, holderName } of live) {
    if (query.mode === "shared" && row.mode === "shared") continue;
    const overlaps: OverlapDetail[] = [];
    for (const requested of query.patterns) {
      for (const held of row.patterns) {
        const verdict = globsOverlap(requested, held);
        if (verdict.overlap) overlaps.push({ requested, held, ...(verdict.example !== undefined ? { example: verdict.example } : {}) });
      }
    }
    if (overlaps.length === 0) continue;
    holders.push({
      reservationId: row.id,
      fence: row.fence,
      holderId: row.holderId,
      holderName,
      mode: row.mode,
      patterns: row.patterns,
      reason: row.reason,
      taskId: row.taskId,
      expiresAt: row.expiresAt.toISOString(),
      overlaps,
    });
  }
  return holders;
}

export function describeHolders(holders: ReservationHolder[]): string {
  return holders.map((h) => `${h.holderName} holds ${h.patterns.join(", ")} (${h.mode}, R-${h.fence}) until ${h.expiresAt}`).join("; ");
}

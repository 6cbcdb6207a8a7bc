// Drives every timebox: expired votes escalate, expired escalations adopt their default, owed notices are posted.
import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import { decisions } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { appendEvent } from "../journal/append";
import { announceDecision } from "./announce";
import { readBallots, tallyOf } from "./decision-view";
import { escalateDecision } from "./escalate";

/** One sweeper at a time across every instance: a transaction-scoped advisory lock. */
export const DECISION_SWEEP_LOCK = 8451102;
const BATCH = 500;

export interface DecisionSweep {
  /** False when another instance held the lock: this pass did nothing. */
  ran: boolean;
  escalated: number;
  defaulted: number;
  announced: number;
}

/** One batch in one transaction; returns the ids it changed, or null when the lock was taken. */
async function sweepBatch(db: Db, now: Date): Promise<{ escalated: string[]; defaulted: string[] } | null> {
  return db.transaction(async (tx) => {
    const [{ locked }] = await tx.execute<{ locked: boolean }>(sql`select pg_try_advisory_xact_lock(${DECISION_SWEEP_LOCK}) as locked`);
    if (!locked) return null;
    // SKIP LOCKED: a decision taking a ballot right now is left to the next pass, never waited on.
    const expired = await tx
      .select()
      .from(decisions)
      .where(and(eq(decisions.status, "open"), lte(decisions.timeboxAt, now)))
      .orderBy(asc(decisions.timeboxAt))
      .limit(BATCH)
      .for("update", { skipLocked: true });
    const cast = await readBallots(
      tx,
      expired.map((d) => d.id),
    );
    for (const decision of expired) {
      await escalateDecision(
        tx,
        decision,
        tallyOf(
          decision.options,
          cast.filter((b) => b.decisionId === decision.id),
        ),
        "timebox",
        now,
      );
    }
    const lapsed = tx
      .select({ id: decisions.id })
      .from(decisions)
      .where(and(eq(decisions.status, "escalated"), lte(decisions.escalationDeadline, now)))
      .orderBy(asc(decisions.escalationDeadline))
      .limit(BATCH)
      .for("update", { skipLocked: true });
    const defaulted = await tx
      .update(decisions)
      .set({ status: "defaulted", outcome: sql`${decisions.defaultOption}`, decidedAt: now })
      .where(inArray(decisions.id, lapsed))
      .returning();
    for (const decision of defaulted) {
      await appendEvent(tx, {
        kind: "DefaultAdopted",
        t: now,
        data: {
          decisionId: decision.id,
          number: decision.number,
          outcome: decision.defaultOption,
          escalationDeadline: decision.escalationDeadline!.toISOString(),
          room: "general",
        },
      });
    }
    return { escalated: expired.map((d) => d.id), defaulted: defaulted.map((d) => d.id) };
  });
}

/**
 * One pass: batches of at most 500 until nothing is due, then every owed announcement (including
 * ones a crashed or failed announcer left behind). The lead's process calls this periodically.
 */
export async function sweepDecisions(db: Db, clock: Clock): Promise<DecisionSweep> {
  const now = clock.now();
  const sweep: DecisionSweep = { ran: false, escalated: 0, defaulted: 0, announced: 0 };
  for (;;) {
    const batch = await sweepBatch(db, now);
    if (!batch) return sweep;
    sweep.ran = true;
    sweep.escalated += batch.escalated.length;
    sweep.defaulted += batch.defaulted.length;
    if (batch.escalated.length < BATCH && batch.defaulted.length < BATCH) break;
  }
  for (;;) {
    const owed = await db
      .select({ id: decisions.id })
      .from(decisions)
      // Exactly the partial index's predicate (decisions_unannounced_idx), so this stays an index scan.
      .where(sql`${decisions.status} <> 'open' and ${decisions.announcedStatus} is distinct from ${decisions.status}`)
      .orderBy(asc(decisions.number))
      .limit(BATCH);
    let posted = 0;
    for (const { id } of owed) if (await announceDecision(db, id, clock)) posted++;
    sweep.announced += posted;
    if (owed.length < BATCH || posted === 0) break;
  }
  return sweep;
}

// Nudges the owners of overdue blockers on the critical path: a direct message, once per edge per 45 minutes.
import { and, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { commitmentDependencies, commitments, principals } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { appendEvent } from "../journal/append";
import { getSystemPrincipal } from "../principals/create-principal";
import { postMessage } from "../rooms/post-message";
import { loadCriticalPath } from "./load-graph";
import { quoted } from "../quoted-text";
import { utcMinute } from "../utc-minute";

const blocker = alias(commitments, "blocker");
const blocked = alias(commitments, "blocked");

/** One reminder sweeper at a time across every instance. */
export const REMINDER_SWEEP_LOCK = 8451103;
export const REMINDER_COOLDOWN_MS = 45 * 60 * 1000;
const REMINDER_ROOM = "general";

export interface ReminderSweep {
  ran: boolean;
  reminded: number;
}

interface Reminder {
  ownerName: string;
  body: string;
}

/**
 * The cooldown is claimed in the transaction (last_reminded_at, ReminderSent) and the messages are
 * posted after it commits (postMessage opens its own transaction): a reminder is sent at most once
 * per edge per cooldown, even if a post fails or the process dies in between.
 */
export async function sweepReminders(db: Db, clock: Clock): Promise<ReminderSweep> {
  const now = clock.now();
  const reminders = await db.transaction(async (tx): Promise<Reminder[] | null> => {
    const [{ locked }] = await tx.execute<{ locked: boolean }>(sql`select pg_try_advisory_xact_lock(${REMINDER_SWEEP_LOCK}) as locked`);
    if (!locked) return null;
    // The common cases (nothing overdue, or every overdue blocker's edges still cooling down) cost
    // index probes, not a walk of the graph.
    const cutoff = new Date(now.getTime() - REMINDER_COOLDOWN_MS);
    const [remindable] = await tx
      .select({ id: blocker.id })
      .from(blocker)
      .innerJoin(commitmentDependencies, eq(commitmentDependencies.blockerId, blocker.id))
      .innerJoin(blocked, and(eq(blocked.id, commitmentDependencies.blockedId), eq(blocked.status, "confirmed")))
      .where(and(eq(blocker.status, "confirmed"), lte(blocker.dueAt, now), or(isNull(commitmentDependencies.lastRemindedAt), lte(commitmentDependencies.lastRemindedAt, cutoff))))
      .limit(1);
    if (!remindable) return [];
    const graph = await loadCriticalPath(tx);
    const due: { blocked: string; blocker: string }[] = [];
    const pathNodes = new Map(graph.nodes.map((n) => [n.id, n]));
    for (let i = 0; i + 1 < graph.criticalPath.length; i++) {
      const dueAt = pathNodes.get(graph.criticalPath[i])!.dueAt;
      if (dueAt && dueAt.getTime() <= now.getTime()) due.push({ blocker: graph.criticalPath[i], blocked: graph.criticalPath[i + 1] });
    }
    if (due.length === 0) return [];
    const rows = await tx
      .select({ commitment: commitments, ownerName: principals.name })
      .from(commitments)
      .innerJoin(principals, eq(principals.id, commitments.ownerId))
      .where(
        inArray(
          commitments.id,
          due.flatMap((d) => [d.blocker, d.blocked]),
        ),
      );
    const byId = new Map(rows.map((r) => [r.commitment.id, r.commitment]));
    const owners = new Map(rows.map((r) => [r.commitment.ownerId, r.ownerName]));
    const out: Reminder[] = [];
    for (const edge of due) {
      const [claimed] = await tx
        .update(commitmentDependencies)
        .set({ lastRemindedAt: now })
        .where(
          and(
            eq(commitmentDependencies.blockedId, edge.blocked),
            eq(commitmentDependencies.blockerId, edge.blocker),
            or(isNull(commitmentDependencies.lastRemindedAt), lte(commitmentDependencies.lastRemindedAt, cutoff)),
          ),
        )
        .returning();
      if (!claimed) continue;
      const from = byId.get(edge.blocker)!;
      const to = byId.get(edge.blocked)!;
      const ownerName = owners.get(from.ownerId)!;
      await appendEvent(tx, {
        kind: "ReminderSent",
        t: now,
        taskId: from.taskId,
        data: { blockerId: from.id, blockedId: to.id, blockerNumber: from.number, blockedNumber: to.number, ownerId: from.ownerId, room: REMINDER_ROOM },
      });
      out.push({
        ownerName,
        body: `C-${from.number} ${quoted(from.what)} was due ${utcMinute(from.dueAt!)} and is on the critical path: C-${to.number} ${quoted(to.what)} waits on it. Fulfil it, or withdraw it with a reason.`,
      });
    }
    return out;
  });
  if (reminders === null) return { ran: false, reminded: 0 };
  const system = await getSystemPrincipal(db);
  for (const reminder of reminders) {
    try {
      await postMessage(db, system, REMINDER_ROOM, { body: reminder.body, to: reminder.ownerName, performative: "REQUEST" }, clock, { nudge: true });
    } catch (error) {
      console.error(`a critical-path reminder to ${reminder.ownerName} could not be posted`, error);
    }
  }
  return { ran: true, reminded: reminders.length };
}

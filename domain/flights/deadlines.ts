// Awaited replies have deadlines: a review silent past the deadline is re-asked once, then escalated.
import { and, eq, isNotNull, isNull, lt } from "drizzle-orm";
import { flights, flightTasks, principals, tasks } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import type { TaskRow } from "../tasks/view";

export interface SilentReview {
  task: TaskRow;
  flightId: string;
  approverName: string;
  /** When the reviewer was re-asked; null if not yet. */
  reaskedAt: Date | null;
}

/** A flight task in review, untouched since before `horizon`, not yet escalated. */
export async function nextSilentReview(db: Db, horizon: Date): Promise<SilentReview | null> {
  const [silent] = await db
    .select({ task: tasks, flightId: flightTasks.flightId, reaskedAt: flightTasks.reaskedAt, approverName: principals.name })
    .from(flightTasks)
    .innerJoin(tasks, eq(tasks.id, flightTasks.taskId))
    .innerJoin(principals, eq(principals.id, tasks.approverId))
    .where(and(eq(tasks.status, "review"), lt(tasks.updatedAt, horizon), isNull(flightTasks.escalatedAt)))
    .limit(1);
  return silent ?? null;
}

/** Records that the reviewer was asked again; false if someone else recorded it first. */
export async function markReasked(db: Db, asker: Principal, silent: SilentReview, clock: Clock): Promise<boolean> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [mine] = await tx
      .update(flightTasks)
      .set({ reaskedAt: now })
      .where(and(eq(flightTasks.taskId, silent.task.id), isNull(flightTasks.reaskedAt)))
      .returning();
    if (!mine) return false;
    await appendEvent(tx, { kind: "ReplyReasked", actor: asker.id, taskId: silent.task.id, t: now, data: { awaiting: silent.task.approverId } });
    return true;
  });
}

/**
 * Records the escalation and returns whom to tell: the human who set the flight's goal (its
 * approver), or null when nobody is named; undefined if someone else escalated it first.
 */
export async function markReplyEscalated(db: Db, asker: Principal, silent: SilentReview, clock: Clock): Promise<{ goalApproverId: string | null } | undefined> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [mine] = await tx
      .update(flightTasks)
      .set({ escalatedAt: now })
      .where(and(eq(flightTasks.taskId, silent.task.id), isNotNull(flightTasks.reaskedAt), isNull(flightTasks.escalatedAt)))
      .returning();
    if (!mine) return undefined;
    await appendEvent(tx, { kind: "ReplyEscalated", actor: asker.id, taskId: silent.task.id, t: now, data: { awaiting: silent.task.approverId } });
    const [owner] = await tx.select({ id: tasks.approverId }).from(flights).innerJoin(tasks, eq(tasks.id, flights.goalTaskId)).where(eq(flights.id, silent.flightId));
    return { goalApproverId: owner?.id ?? null };
  });
}

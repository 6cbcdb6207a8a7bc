// The reviewer's side of a flight: which task waits for it, and how its flight thinks.
import { and, asc, desc, eq, gt, sql } from "drizzle-orm";
import { events, flights, flightTasks, tasks } from "../../db/schema";
import type { Db } from "../../db/client";
import { payloadOf } from "../journal/payloads";

/**
 * A task waits for this reviewer when it is in review and no run of the reviewer's began after its
 * submission — or after the reviewer's last failed review (TaskReleased), once that one's cool-down passed.
 */
export async function nextTaskToReview(db: Db, reviewerId: string, now = new Date()): Promise<string | null> {
  const waiting = await db
    .select({ id: tasks.id })
    .from(tasks)
    .where(and(eq(tasks.status, "review"), eq(tasks.approverId, reviewerId)))
    .orderBy(asc(tasks.number));
  for (const { id } of waiting) {
    const [submitted] = await db
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.taskId, id), eq(events.kind, "TaskSubmitted")))
      .orderBy(desc(events.id))
      .limit(1);
    const [released] = await db
      .select({ id: events.id, data: events.data, kind: events.kind })
      .from(events)
      .where(and(eq(events.taskId, id), eq(events.kind, "TaskReleased"), eq(events.actor, reviewerId), gt(events.id, submitted?.id ?? 0)))
      .orderBy(desc(events.id))
      .limit(1);
    const coolDownUntil = released ? payloadOf(released, "TaskReleased").coolDownUntil : null;
    if (coolDownUntil && Date.parse(coolDownUntil) > now.getTime()) continue;
    const [tried] = await db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(events)
      .where(and(eq(events.taskId, id), eq(events.kind, "RunStarted"), eq(events.actor, reviewerId), gt(events.id, released?.id ?? submitted?.id ?? 0)));
    if (tried.n === 0) return id;
  }
  return null;
}

/** The mode of the flight a task belongs to (`scripted`, a model's name, or the human's scripted choice); null outside flights. */
export async function flightModeOf(db: Db, taskId: string): Promise<string | null> {
  const [row] = await db.select({ mode: flights.mode }).from(flightTasks).innerJoin(flights, eq(flights.id, flightTasks.flightId)).where(eq(flightTasks.taskId, taskId));
  return row?.mode ?? null;
}

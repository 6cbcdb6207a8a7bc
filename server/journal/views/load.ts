// Thin loaders that feed the pure views: the events of a run, of a task, or of some kinds, in journal order.
import { and, asc, eq, inArray, or, type SQL } from "drizzle-orm";
import { events, principals } from "../../../db/schema";
import type { Executor } from "../../../db/client";
import { eventColumns } from "../list";
import type { JournalRecord } from "./run-events";

async function select(db: Executor, where: SQL | undefined): Promise<JournalRecord[]> {
  return db.select(eventColumns).from(events).leftJoin(principals, eq(principals.id, events.actor)).where(where).orderBy(asc(events.id));
}

export function loadRunEvents(db: Executor, runId: string): Promise<JournalRecord[]> {
  return select(db, eq(events.runId, runId));
}

/** A task's own events and every event of the runs that worked on it. */
export async function loadTaskEvents(db: Executor, taskId: string): Promise<JournalRecord[]> {
  const runs = await db
    .selectDistinct({ runId: events.runId })
    .from(events)
    .where(and(eq(events.taskId, taskId), eq(events.kind, "RunStarted")));
  const runIds = runs.map((r) => r.runId).filter((id): id is string => id !== null);
  return select(db, runIds.length ? or(eq(events.taskId, taskId), inArray(events.runId, runIds)) : eq(events.taskId, taskId));
}

export function loadEventsOfKinds(db: Executor, kinds: string[], filter?: SQL): Promise<JournalRecord[]> {
  return select(db, filter ? and(inArray(events.kind, kinds), filter) : inArray(events.kind, kinds));
}

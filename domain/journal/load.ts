// Thin loaders that feed the institutions' folds: the events of a run, of a task, or of some kinds, in journal order.
// A `viewer` (the surface's caller) leaves out what it may not read (./visibility.ts); rules read unscoped.
import { and, asc, eq, gt, gte, inArray, or, type SQL } from "drizzle-orm";
import { z } from "zod";
import { events, flights, flightTasks, principals } from "../../db/schema";
import type { Executor } from "../../db/client";
import type { Principal } from "../principal";
import { eventColumns } from "./list";
import { eventsVisibleTo } from "./visibility";

/** The fields a fold needs; both stored rows and listJournal entries fit. */
export interface JournalRecord {
  id: number;
  t: string | Date;
  kind: string;
  actor: string | null;
  runId: string | null;
  taskId: string | null;
  turn: number | null;
  data: unknown;
  actorName?: string | null;
}

/** Run ids as the runtime makes them (`run_<hex>`) or as a caller chose them: printable, bounded. */
export const runIdSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[\w.:-]+$/, "a run id is letters, digits and _ . : -");

/** Which kinds a fold reads (undefined: all); the others are never loaded. */
type Kinds = readonly string[] | undefined;

async function select(db: Executor, where: SQL | undefined, viewer?: Principal, limit?: number, kinds?: Kinds): Promise<JournalRecord[]> {
  const query = db
    .select(eventColumns)
    .from(events)
    .leftJoin(principals, eq(principals.id, events.actor))
    .where(and(where, kinds ? inArray(events.kind, [...kinds]) : undefined, viewer ? eventsVisibleTo(viewer) : undefined))
    .orderBy(asc(events.id));
  return limit ? query.limit(limit) : query;
}

export function loadRunEvents(db: Executor, runId: string, viewer?: Principal, kinds?: Kinds): Promise<JournalRecord[]> {
  return select(db, eq(events.runId, runId), viewer, undefined, kinds);
}

/** Which events are a task's: its own and every event of the runs that worked on it. */
export async function taskScope(db: Executor, taskId: string): Promise<SQL> {
  const runs = await db
    .selectDistinct({ runId: events.runId })
    .from(events)
    .where(and(eq(events.taskId, taskId), eq(events.kind, "RunStarted")));
  const runIds = runs.map((r) => r.runId).filter((id): id is string => id !== null);
  return runIds.length ? or(eq(events.taskId, taskId), inArray(events.runId, runIds))! : eq(events.taskId, taskId);
}

/** A task's own events and every event of the runs that worked on it. */
export async function loadTaskEvents(db: Executor, taskId: string, viewer?: Principal, kinds?: Kinds): Promise<JournalRecord[]> {
  return select(db, await taskScope(db, taskId), viewer, undefined, kinds);
}

/** A flight's events: its goal's and its tasks' (every task it planned), each with the runs that worked on it. */
export async function loadFlightEvents(db: Executor, flightId: string, viewer?: Principal, kinds?: Kinds): Promise<JournalRecord[]> {
  const [flight] = await db.select({ goalTaskId: flights.goalTaskId }).from(flights).where(eq(flights.id, flightId));
  if (!flight) return [];
  const planned = await db.select({ taskId: flightTasks.taskId }).from(flightTasks).where(eq(flightTasks.flightId, flightId));
  const scopes = await Promise.all([flight.goalTaskId, ...planned.map((p) => p.taskId)].map((taskId) => taskScope(db, taskId)));
  return select(db, or(...scopes), viewer, undefined, kinds);
}

/** Every event from a point on (an event id, or a moment), the first `limit` of them. */
export function loadEventsSince(db: Executor, since: { afterId: number } | { from: Date }, limit: number, viewer?: Principal, kinds?: Kinds): Promise<JournalRecord[]> {
  return select(db, "afterId" in since ? gt(events.id, since.afterId) : gte(events.t, since.from), viewer, limit, kinds);
}

export function loadEventsOfKinds(db: Executor, kinds: string[], filter?: SQL): Promise<JournalRecord[]> {
  return select(db, filter ? and(inArray(events.kind, kinds), filter) : inArray(events.kind, kinds));
}

// A diagnosis at one scope (GET /api/diagnosis, `quorum diagnose`, the MCP tool `diagnose`): a flight, a
// run, a task, or everything since an event or a moment. The events are the viewer's — read under the same
// visibility rule as every other read — before anything is detected, so a finding never rests on a direct
// message its reader could not read.
import { eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { flights, principals, tasks } from "../../db/schema";
import type { Executor } from "../../db/client";
import { fail } from "../errors";
import { isUuid } from "../ids";
import { loadEventsSince, loadFlightEvents, loadRunEvents, loadTaskEvents, runIdSchema, type JournalRecord } from "../journal/load";
import type { Principal } from "../principal";
import { taskIdOf, taskRef } from "../tasks/ref";
import { DIAGNOSED_KINDS, diagnose } from "./diagnose";
import type { Finding } from "./finding";
import type { KnownNames } from "./journal-facts";

/** How many events a `since` diagnosis reads at most; past them it says so (`truncated`) and where it stopped. */
export const SINCE_LIMIT = 20_000;

const SCOPES = ["flight", "run", "task", "since"] as const;
export type DiagnosisScope = (typeof SCOPES)[number];

/** GET /api/diagnosis's query: exactly one scope. */
export const diagnosisQuery = z
  .strictObject({
    flight: z
      .string()
      .regex(/^(#?\d{1,9}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i, "a flight's number (3 or #3) or id")
      .optional(),
    run: runIdSchema.optional(),
    task: taskRef.optional(),
    /** An event id (everything after it) or an ISO 8601 moment with its offset (everything from it). */
    since: z.union([z.string().regex(/^\d{1,15}$/, "an event id"), z.iso.datetime({ offset: true })]).optional(),
  })
  .refine((query) => SCOPES.filter((scope) => query[scope] !== undefined).length === 1, { message: "name exactly one of flight, run, task or since" });
export type DiagnosisQuery = z.infer<typeof diagnosisQuery>;

export interface DiagnosisView {
  scope: DiagnosisScope;
  /** What was diagnosed, in words: "flight 3", "#12", "run run_ab…", "since event 120". */
  label: string;
  /** How many events were read: the viewer's, of the kinds the detectors read. */
  events: number;
  /** A `since` diagnosis stopped after SINCE_LIMIT events: `through` is the last one read (pass it as `since` to go on). */
  truncated: boolean;
  through: number | null;
  findings: Finding[];
}

/** Everyone's names and the numbers of the tasks in view, so that sentences name who and what. */
async function knownNames(db: Executor, events: readonly JournalRecord[]): Promise<KnownNames> {
  const people = await db.select({ id: principals.id, name: principals.name }).from(principals);
  const taskIds = [...new Set(events.map((e) => e.taskId).filter((id): id is string => id !== null))];
  const numbered = taskIds.length ? await db.select({ id: tasks.id, number: tasks.number }).from(tasks).where(inArray(tasks.id, taskIds)) : [];
  return { principals: new Map(people.map((p) => [p.id, p.name])), tasks: new Map(numbered.map((t) => [t.id, t.number])) };
}

async function flightOf(db: Executor, ref: string): Promise<{ id: string; number: number }> {
  const number = /^#?(\d{1,9})$/.exec(ref)?.[1];
  const where = number !== undefined ? eq(flights.number, Number(number)) : isUuid(ref) ? eq(flights.id, ref) : undefined;
  const [flight] = where ? await db.select({ id: flights.id, number: flights.number }).from(flights).where(where) : [];
  if (!flight) throw fail.notFound("flight", `no flight ${ref.slice(0, 64)}`);
  return flight;
}

/** A flight's journal as the detectors read it, and the names its sentences use. */
export async function flightJournal(db: Executor, flightId: string): Promise<{ events: JournalRecord[]; names: KnownNames }> {
  const events = await loadFlightEvents(db, flightId, undefined, DIAGNOSED_KINDS);
  return { events, names: await knownNames(db, events) };
}

/** A flight's whole journal, diagnosed as a human reads it (the live monitor's view). */
export async function diagnoseFlight(db: Executor, flightId: string): Promise<Finding[]> {
  const { events, names } = await flightJournal(db, flightId);
  return diagnose(events, names);
}

async function diagnosed(db: Executor, scope: DiagnosisScope, label: string, events: JournalRecord[], keep: (f: Finding) => boolean = () => true): Promise<DiagnosisView> {
  return { scope, label, events: events.length, truncated: false, through: null, findings: diagnose(events, await knownNames(db, events)).filter(keep) };
}

/** `viewer` reads as the surfaces' caller does; undefined, every event (the operator's CLI, the monitor). */
export async function diagnoseScope(db: Executor, viewer: Principal | undefined, query: DiagnosisQuery): Promise<DiagnosisView> {
  if (query.flight !== undefined) {
    const flight = await flightOf(db, query.flight);
    return diagnosed(db, "flight", `flight ${flight.number}`, await loadFlightEvents(db, flight.id, viewer, DIAGNOSED_KINDS));
  }
  if (query.task !== undefined) {
    const taskId = await taskIdOf(db, query.task);
    const [task] = isUuid(taskId) ? await db.select({ number: tasks.number }).from(tasks).where(eq(tasks.id, taskId)) : [];
    if (!task) throw fail.notFound("task", `no task ${query.task.slice(0, 64)}`);
    return diagnosed(db, "task", `#${task.number}`, await loadTaskEvents(db, taskId, viewer, DIAGNOSED_KINDS));
  }
  if (query.run !== undefined) {
    const runId = query.run;
    const own = await loadRunEvents(db, runId, viewer, DIAGNOSED_KINDS);
    if (own.length === 0) throw fail.notFound("run", `no run ${runId} in the journal`);
    // With its task's journal, where a run's submission, review and integration show; the findings kept are the run's.
    const taskId = own.find((e) => e.kind === "RunStarted")?.taskId ?? own.find((e) => e.taskId)?.taskId;
    const around = taskId ? await loadTaskEvents(db, taskId, viewer, DIAGNOSED_KINDS) : [];
    const events = [...new Map([...own, ...around].map((e) => [e.id, e])).values()].sort((a, b) => a.id - b.id);
    const mine = new Set(own.map((e) => e.id));
    return diagnosed(db, "run", `run ${runId}`, events, (f) => f.runIds.includes(runId) || f.eventIds.some((id) => mine.has(id)));
  }
  const since = query.since!;
  const from = /^\d+$/.test(since) ? { afterId: Number(since) } : { from: new Date(since) };
  const read = await loadEventsSince(db, from, SINCE_LIMIT + 1, viewer, DIAGNOSED_KINDS);
  const events = read.slice(0, SINCE_LIMIT);
  const view = await diagnosed(db, "since", "afterId" in from ? `since event ${from.afterId}` : `since ${from.from.toISOString()}`, events);
  const truncated = read.length > SINCE_LIMIT;
  return { ...view, truncated, through: truncated ? (events.at(-1)?.id ?? null) : null };
}

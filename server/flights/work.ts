// The coder's side of a flight: the next task to work (rework first), the REQUEST it answers, and
// giving up on a task rejected too often.
import { and, asc, eq, inArray, notInArray } from "drizzle-orm";
import { events, flights, flightTasks, messages, tasks } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { appendEvent } from "../journal/append";
import { payloadOf } from "../journal/payloads";
import type { Principal } from "../principals/types";
import { QuorumError } from "../errors";
import { claimTask } from "../tasks/claim";
import { claimNextTask } from "../tasks/claim-next";
import { coolingTaskIds } from "./hand-back";
import { readTaskView, type TaskView } from "../tasks/view";

export interface FlightWork {
  task: TaskView;
  /** The flight's repository. */
  repo: string;
  /** The flight's mode (the human may have chosen to run it scripted). */
  mode: string;
}

const isRejection = (e: { kind: string; data: unknown }) => e.kind === "TaskReviewed" && payloadOf(e, "TaskReviewed").verdict === "reject";

/** A rejected task comes back to its owner in progress: rework it if nothing of ours (a run, a give-up) came since. */
export async function nextRework(db: Db, coderId: string): Promise<(FlightWork & { rejections: number }) | null> {
  const mine = await db
    .select({ id: tasks.id, repo: flights.repo, mode: flights.mode })
    .from(tasks)
    .innerJoin(flightTasks, eq(flightTasks.taskId, tasks.id))
    .innerJoin(flights, eq(flights.id, flightTasks.flightId))
    .where(and(eq(tasks.status, "in_progress"), eq(tasks.ownerId, coderId)));
  for (const { id, repo, mode } of mine) {
    const history = await db
      .select({ kind: events.kind, data: events.data })
      .from(events)
      .where(and(eq(events.taskId, id), inArray(events.kind, ["TaskReviewed", "RunStarted", "ReworkAbandoned"])))
      .orderBy(asc(events.id));
    const last = history.at(-1);
    if (last && isRejection(last)) return { task: await readTaskView(db, id), repo, mode, rejections: history.filter(isRejection).length };
  }
  return null;
}

/**
 * Claims the next ready task of any working flight, within that flight's goal. A task released by a
 * failed run is skipped until its cool-down passes (then claimed by id, the others still in order).
 */
export async function claimNextFlightTask(db: Db, coder: Principal, clock: Clock): Promise<FlightWork | null> {
  const working = await db.select().from(flights).where(eq(flights.status, "working")).orderBy(asc(flights.createdAt));
  for (const flight of working) {
    const cooling = await coolingTaskIds(db, flight.id, clock.now());
    if (cooling.size === 0) {
      const task = await claimNextTask(db, coder, clock, { parentId: flight.goalTaskId });
      if (task) return { task, repo: flight.repo, mode: flight.mode };
      continue;
    }
    const ready = await db
      .select({ id: tasks.id })
      .from(tasks)
      .where(and(eq(tasks.parentId, flight.goalTaskId), eq(tasks.status, "ready"), notInArray(tasks.id, [...cooling])))
      .orderBy(asc(tasks.number));
    for (const { id } of ready) {
      try {
        return { task: await claimTask(db, coder, id, clock), repo: flight.repo, mode: flight.mode };
      } catch (error) {
        // Taken by someone else meanwhile, or not claimable by this coder: the next one.
        if (!(error instanceof QuorumError)) throw error;
      }
    }
  }
  return null;
}

/** The first REQUEST on the task's thread addressed to `recipientId`: the message a run answers. */
export async function requestAddressedTo(db: Db, taskId: string, recipientId: string): Promise<number | null> {
  const [request] = await db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.taskId, taskId), eq(messages.performative, "REQUEST"), eq(messages.toId, recipientId)))
    .orderBy(asc(messages.id))
    .limit(1);
  return request?.id ?? null;
}

/** Marks a task as given up after `rejections` rounds: the next rework check skips it until a new verdict. */
export async function abandonRework(db: Db, coder: Principal, taskId: string, rejections: number, clock: Clock): Promise<void> {
  await db.transaction(async (tx) => {
    await appendEvent(tx, { kind: "ReworkAbandoned", actor: coder.id, taskId, t: clock.now(), data: { rejections } });
  });
}

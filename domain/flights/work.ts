// The coder's side of a flight: the next task to work (rework first), the REQUEST it answers, and
// giving up on a task rejected too often.
import { and, asc, desc, eq, inArray, isNotNull } from "drizzle-orm";
import { events, flights, flightTasks, messages, taskEvidence, taskReviews, tasks } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { payloadOf } from "../journal/payloads";
import type { Principal } from "../principal";
import { claimNextTask } from "../tasks/claim-next";
import { commentLine, commentsOfReview } from "../tasks/comments";
import { readTaskView, type TaskView } from "../tasks/view";
import { placeOf, type FlightPlace } from "./place";

export interface FlightWork {
  task: TaskView;
  /** Where the flight works, and how it thinks (`place.mode`: the human may have chosen to run it scripted). */
  place: FlightPlace;
}

const isRejection = (e: { kind: string; data: unknown }) => e.kind === "TaskReviewed" && payloadOf(e, "TaskReviewed").verdict === "reject";

/** The last request for changes in the owner's words: its reason, then each line comment with its file and line. */
async function lastRejectionOf(db: Db, taskId: string, reason: string): Promise<string> {
  const [review] = await db
    .select({ id: taskReviews.id })
    .from(taskReviews)
    .where(and(eq(taskReviews.taskId, taskId), eq(taskReviews.verdict, "reject")))
    .orderBy(desc(taskReviews.id))
    .limit(1);
  const comments = review ? await commentsOfReview(db, review.id) : [];
  return comments.length === 0 ? reason : `${reason}\nOn the lines of your change:\n${comments.map(commentLine).join("\n")}`;
}

/**
 * A rejected task comes back to its owner in progress: rework it if nothing of ours (a run, a give-up) came
 * since. `rejections` counts the rounds since the task was last given up (a human's retry starts afresh).
 */
export async function nextRework(db: Db, coderId: string): Promise<(FlightWork & { rejections: number; lastReview: string }) | null> {
  const mine = await db
    .select({ id: tasks.id, flight: flights })
    .from(tasks)
    .innerJoin(flightTasks, eq(flightTasks.taskId, tasks.id))
    .innerJoin(flights, eq(flights.id, flightTasks.flightId))
    .where(and(eq(tasks.status, "in_progress"), eq(tasks.ownerId, coderId)));
  for (const { id, flight } of mine) {
    const history = await db
      .select({ kind: events.kind, data: events.data })
      .from(events)
      .where(and(eq(events.taskId, id), inArray(events.kind, ["TaskReviewed", "RunStarted", "ReworkAbandoned"])))
      .orderBy(asc(events.id));
    const last = history.at(-1);
    if (!last || !isRejection(last)) continue;
    const sinceGivenUp = history.slice(history.findLastIndex((e) => e.kind === "ReworkAbandoned") + 1);
    const lastReview = await lastRejectionOf(db, id, payloadOf(last, "TaskReviewed").reason ?? "no reason given");
    return { task: await readTaskView(db, id), place: placeOf(flight), rejections: sinceGivenUp.filter(isRejection).length, lastReview };
  }
  return null;
}

/**
 * Claims the next ready task of any working flight, within that flight's goal, in claim-next's order (one
 * offered to the coder first, then in number order: db/functions/quorum_claim_next_tasks.sql, the one home of
 * that order). A task released by a failed run is skipped until its cool-down passes, and one handed to the
 * orchestrator to re-plan is skipped altogether: the search asks that of the tasks it has locked, so never on
 * a cooling set read before the release that made a task ready (with two coders, one read the set while the
 * other's third try was being handed back, and tried the task a fourth time).
 */
export async function claimNextFlightTask(db: Db, coder: Principal, clock: Clock): Promise<FlightWork | null> {
  // A flight's tasks are taken once its plan is recorded: its dependencies are known then, and no task starts
  // on a branch that a task planned after it should have come first on.
  const working = await db
    .select()
    .from(flights)
    .where(and(eq(flights.status, "working"), isNotNull(flights.plannedAt)))
    .orderBy(asc(flights.createdAt));
  for (const flight of working) {
    const task = await claimNextTask(db, coder, clock, { parentId: flight.goalTaskId, flightId: flight.id, via: "claim" });
    if (task) return { task, place: placeOf(flight) };
  }
  return null;
}

/** A flight task (not a goal) in progress, with its flight's place: what a coder carries on after a crash or on request. */
export async function heldFlightWork(db: Db, taskId: string): Promise<FlightWork | null> {
  const [row] = await db
    .select({ flight: flights })
    .from(flightTasks)
    .innerJoin(flights, eq(flights.id, flightTasks.flightId))
    .innerJoin(tasks, eq(tasks.id, flightTasks.taskId))
    .where(and(eq(flightTasks.taskId, taskId), eq(tasks.status, "in_progress")));
  return row ? { task: await readTaskView(db, taskId), place: placeOf(row.flight) } : null;
}

/** How many times the task's review rejected it: which round of review its next submission opens, less one. */
export async function rejectionsOf(db: Db, taskId: string): Promise<number> {
  const verdicts = await db
    .select({ kind: events.kind, data: events.data })
    .from(events)
    .where(and(eq(events.taskId, taskId), eq(events.kind, "TaskReviewed")));
  return verdicts.filter(isRejection).length;
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

/**
 * The evidence a task was last reopened with, if it was reopened since its last submission: a task sent
 * back (its merge conflicted, or a human reopened it) starts again from the flight's branch, told why.
 */
export async function reopenedWith(db: Db, taskId: string): Promise<string | null> {
  const [latest] = await db
    .select({ kind: taskEvidence.kind, evidence: taskEvidence.evidence })
    .from(taskEvidence)
    .where(eq(taskEvidence.taskId, taskId))
    .orderBy(desc(taskEvidence.id))
    .limit(1);
  return latest?.kind === "reopen" ? latest.evidence : null;
}

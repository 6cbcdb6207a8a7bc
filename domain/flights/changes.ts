// A goal sent back by its human ("request changes") is rework for the team, not a goal to hand in again: the
// orchestrator files one task of the flight carrying the human's reason and line comments, each with its file
// and line, for a coder to do; the flight works again until that task is integrated and the suite decides.
import { and, desc, eq, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { flights, flightTasks, taskReviews, tasks } from "../../db/schema";
import type { Db, Tx } from "../../db/client";
import type { Clock } from "../clock";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { commentLine, commentsOfReview } from "../tasks/comments";
import { insertTask } from "../tasks/create";
import type { TaskView } from "../tasks/view";
import type { Flight } from "./launch";
import { fundTasks } from "./plan";

/** The goal's latest review asked for changes and the team has not filed their task yet: not to be handed in again. */
export function changesUnanswered(goalId: AnyPgColumn) {
  return sql`exists (select from task_reviews r where r.task_id = ${goalId} and r.verdict = 'reject'
    and r.id = (select max(l.id) from task_reviews l where l.task_id = ${goalId})
    and not exists (select from events c where c.kind = 'FlightChangesRequested' and c.task_id = ${goalId} and (c.data->>'reviewId')::bigint = r.id))`;
}

/**
 * Files one task of rework on a flight, under its goal: what was asked as its description, approved by
 * `reviewerId`, funded from the flight's allowance, and the flight working again until it is integrated.
 */
export async function fileRework(
  tx: Tx,
  orchestrator: Principal,
  reviewerId: string,
  flight: Flight,
  goalId: string,
  rework: { title: string; asked: string },
  now: Date,
): Promise<{ task: TaskView; flight: Flight }> {
  const task = await insertTask(
    tx,
    orchestrator,
    {
      title: rework.title.slice(0, 200),
      description: rework.asked.slice(0, 20_000),
      acceptanceCriteria: "Each change asked for above is made, on the lines named, and the repository's tests still pass.",
      approverId: reviewerId,
      parentId: goalId,
    },
    now,
  );
  await tx.insert(flightTasks).values({ taskId: task.id, flightId: flight.id });
  await appendEvent(tx, { kind: "FlightTaskAdded", actor: orchestrator.id, taskId: task.id, t: now, data: { flightId: flight.id, number: task.number } });
  await fundTasks(tx, orchestrator, flight, [{ id: task.id, number: task.number, title: task.title }], now);
  const [working] = await tx.update(flights).set({ status: "working", updatedAt: now }).where(eq(flights.id, flight.id)).returning();
  return { task, flight: working };
}

/**
 * Takes the oldest goal its human sent back that the team has not answered yet: in one transaction (the flight's
 * row locked, so a second orchestrator skips it) files the task of the changes, approved by `reviewerId`, and
 * sets the flight working again.
 */
export async function takeRequestedChanges(
  db: Db,
  orchestrator: Principal,
  reviewerId: string,
  clock: Clock,
): Promise<{ flight: Flight; goalNumber: number; task: TaskView; comments: number } | null> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({ flight: flights, goal: tasks, review: taskReviews })
      .from(flights)
      .innerJoin(tasks, eq(tasks.id, flights.goalTaskId))
      .innerJoin(taskReviews, eq(taskReviews.taskId, tasks.id))
      .where(
        and(
          eq(flights.status, "green"),
          eq(tasks.status, "in_progress"),
          eq(tasks.ownerId, orchestrator.id),
          changesUnanswered(tasks.id),
          sql`${taskReviews.id} = (select max(r.id) from task_reviews r where r.task_id = ${tasks.id})`,
        ),
      )
      .orderBy(desc(taskReviews.id))
      .limit(1)
      .for("update", { of: flights, skipLocked: true });
    if (!found) return null;
    const { flight, goal, review } = found;
    const comments = await commentsOfReview(tx, review.id);
    const asked = [
      `The human who set the goal (${goal.title}) reviewed the flight's work on ${flight.branch ?? "its branch"} and asked for changes:`,
      review.reason ?? "",
      ...(comments.length ? ["On the lines of the change:", ...comments.map(commentLine)] : []),
    ].join("\n");
    const { task, flight: working } = await fileRework(tx, orchestrator, reviewerId, flight, goal.id, { title: `Changes asked for on goal #${goal.number}`, asked }, now);
    await appendEvent(tx, {
      kind: "FlightChangesRequested",
      actor: orchestrator.id,
      taskId: goal.id,
      t: now,
      data: { flightId: flight.id, reviewId: review.id, task: task.number, comments: comments.length },
    });
    return { flight: working, goalNumber: goal.number, task, comments: comments.length };
  });
}

// Which goals the team handed back to their human (./hand-back.ts wrote it): the flight red, its goal back in
// ready, and a release on record saying why. What waits for the human (domain/desk/waiting.ts) and A2A's FAILED
// (surfaces/a2a/) both read it here.
import { and, desc, eq, type SQL } from "drizzle-orm";
import { events, flights, tasks } from "../../db/schema";
import type { Executor } from "../../db/client";
import { payloadOf } from "../journal/payloads";

export interface HandedBackGoal {
  flightId: string;
  taskId: string;
  number: number;
  title: string;
  /** Why the run ended, in the run's words (the model's error, or the run's outcome). */
  reason: string;
  /** `failed`, or the run's status (`inconclusive`, `out_of_turns`, …). */
  outcome: string;
  model: string;
  /** When it came back. */
  since: Date;
}

/** The handed-back goals among the goals `where` selects, oldest goal first. */
export async function handedBackGoals(db: Executor, where?: SQL): Promise<HandedBackGoal[]> {
  const rows = await db
    .select({ flightId: flights.id, taskId: tasks.id, number: tasks.number, title: tasks.title })
    .from(flights)
    .innerJoin(tasks, eq(tasks.id, flights.goalTaskId))
    .where(and(eq(flights.status, "red"), eq(tasks.status, "ready"), where))
    .orderBy(tasks.number);
  const goals: HandedBackGoal[] = [];
  for (const row of rows) {
    const [released] = await db
      .select({ kind: events.kind, data: events.data, t: events.t })
      .from(events)
      .where(and(eq(events.taskId, row.taskId), eq(events.kind, "TaskReleased")))
      .orderBy(desc(events.id))
      .limit(1);
    if (!released) continue;
    const data = payloadOf(released, "TaskReleased");
    goals.push({ ...row, reason: data.reason, outcome: data.outcome, model: data.model, since: released.t });
  }
  return goals;
}

/** The goal `taskId`, if it is a goal the team handed back; null for any other task. */
export async function handedBackGoal(db: Executor, taskId: string): Promise<HandedBackGoal | null> {
  const [goal] = await handedBackGoals(db, eq(tasks.id, taskId));
  return goal ?? null;
}

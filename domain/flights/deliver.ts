// A green flight's goal goes to the human who set it, with the tester's last run on its branch as evidence.
import { and, desc, eq, not } from "drizzle-orm";
import { events, flights, tasks } from "../../db/schema";
import type { Db } from "../../db/client";
import { payloadOf } from "../journal/payloads";
import type { Observation } from "../runs/run-events";
import type { TaskRow } from "../tasks/view";
import { changesUnanswered } from "./changes";
import type { Flight } from "./launch";

/** A green flight whose goal the orchestrator still holds in progress (and not because its human asked for changes). */
export async function nextGreenGoal(db: Db, orchestratorId: string): Promise<{ flight: Flight; goal: TaskRow } | null> {
  const [green] = await db
    .select({ flight: flights, goal: tasks })
    .from(flights)
    .innerJoin(tasks, eq(tasks.id, flights.goalTaskId))
    .where(and(eq(flights.status, "green"), eq(tasks.status, "in_progress"), eq(tasks.ownerId, orchestratorId), not(changesUnanswered(tasks.id))))
    .limit(1);
  return green ?? null;
}

/** The run of the goal's latest SuiteRan and the last observation of its tool (the test runner's output). */
export async function lastSuiteRun(db: Db, goalTaskId: string): Promise<{ runId: string | null; observation: Observation | null }> {
  const [suite] = await db
    .select({ runId: events.runId })
    .from(events)
    .where(and(eq(events.kind, "SuiteRan"), eq(events.taskId, goalTaskId)))
    .orderBy(desc(events.id))
    .limit(1);
  if (!suite?.runId) return { runId: null, observation: null };
  const [output] = await db
    .select({ kind: events.kind, data: events.data })
    .from(events)
    .where(and(eq(events.runId, suite.runId), eq(events.kind, "ToolReturned")))
    .orderBy(desc(events.id))
    .limit(1);
  return { runId: suite.runId, observation: output ? payloadOf(output, "ToolReturned").observation : null };
}

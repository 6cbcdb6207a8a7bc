// Where a flight's work lives in git, as every reader of it names it: the team's clone, the branch it
// integrates into, the commit it started from, the user's repository it publishes the branch to, and the
// command that runs the tests. A flight from before flights had a repository of their own worked in place:
// its clone is its repository, its branch `main`, and it publishes nowhere.
import { eq } from "drizzle-orm";
import { flights, flightTasks } from "../../db/schema";
import type { Executor } from "../../db/client";
import type { Flight } from "./launch";

export interface FlightPlace {
  flightId: string;
  number: number;
  goalTaskId: string;
  /** The team's clone, where integration happens (its own work tree holds `branch`). */
  repo: string;
  /** The user's repository, which only ever receives `branch`; null for a flight that worked in place. */
  source: string | null;
  /** The https URL `source` is the hub's clone of, where the branch is pushed too; null for a folder. */
  remote: string | null;
  branch: string;
  /** The commit the flight started from; null for a flight that worked in place. */
  baseCommit: string | null;
  /** The shell command that runs the tests; null: the worker's default (QUORUM_TEST_COMMAND). */
  testCommand: string | null;
  mode: string;
}

export function placeOf(flight: Flight): FlightPlace {
  return {
    flightId: flight.id,
    number: flight.number,
    goalTaskId: flight.goalTaskId,
    repo: flight.repo,
    source: flight.source,
    remote: flight.remote,
    branch: flight.branch ?? "main",
    baseCommit: flight.baseCommit,
    testCommand: flight.testCommand,
    mode: flight.mode,
  };
}

/** The flight a task belongs to, as a subtask or as the goal, or null for a task outside flights. */
export async function flightOfTask(db: Executor, taskId: string): Promise<{ place: FlightPlace; isGoal: boolean } | null> {
  const [sub] = await db.select({ flight: flights }).from(flightTasks).innerJoin(flights, eq(flights.id, flightTasks.flightId)).where(eq(flightTasks.taskId, taskId));
  if (sub) return { place: placeOf(sub.flight), isGoal: false };
  const [goal] = await db.select().from(flights).where(eq(flights.goalTaskId, taskId));
  return goal ? { place: placeOf(goal), isGoal: true } : null;
}

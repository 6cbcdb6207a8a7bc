// A flight's baseline: the suite's per-test results at the base commit, run once after the setup, before anyone
// works. Tests red there are not a task's breakage; the review's gate (db/functions/quorum_accept_refusal.sql) and
// the orchestrator's plan read it. They are the goal's target tests: what its human's review sees fixed.
import { eq } from "drizzle-orm";
import { flights, tasks } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import type { TestResults } from "../verification/test-results";
import type { Flight } from "./launch";

/** Failing tests named in the event; the whole list is the flight's row. */
const NAMED_IN_EVENT = 50;
/** The goal's target tests, as many as a task may name (targetTestsInput). */
const MAX_GOAL_TARGETS = 50;

export interface BaselineRun {
  exitCode: number | null;
  tests: TestResults | null;
  summary: string;
}

export async function recordFlightBaseline(db: Db, actor: Principal, flight: Flight, run: BaselineRun, clock: Clock): Promise<void> {
  const now = clock.now();
  await db.transaction(async (tx) => {
    await tx.update(flights).set({ baselineTests: run.tests, updatedAt: now }).where(eq(flights.id, flight.id));
    const red = run.tests?.failed.slice(0, MAX_GOAL_TARGETS) ?? [];
    if (red.length) await tx.update(tasks).set({ targetTests: red }).where(eq(tasks.id, flight.goalTaskId));
    await appendEvent(tx, {
      kind: "FlightBaselineRan",
      actor: actor.id,
      taskId: flight.goalTaskId,
      t: now,
      data: { flightId: flight.id, exitCode: run.exitCode, summary: run.summary, failed: run.tests ? run.tests.failed.slice(0, NAMED_IN_EVENT) : null },
    });
  });
}

/** The baseline's failing tests, or null when the flight has none (not run yet, or no format its runner prints). */
export async function baselineFailures(db: Db, flightId: string): Promise<string[] | null> {
  const [row] = await db.select({ baseline: flights.baselineTests }).from(flights).where(eq(flights.id, flightId));
  return (row?.baseline as TestResults | null)?.failed ?? null;
}

// The tester's side of a flight: claim the round of integrations to test, then record the suite's
// verdict, which decides the flight's status (red, still working, or green).
import { and, eq, isNotNull, isNull, ne, or } from "drizzle-orm";
import { flights, flightTasks, tasks } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import type { Flight } from "./launch";

/** Claims every integrated, untested task of one flight, so two testers never run one round twice. */
export async function claimSuiteRound(db: Db, tester: Principal, clock: Clock): Promise<{ flight: Flight; taskIds: string[] } | null> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [next] = await tx
      .select({ flight: flights })
      .from(flightTasks)
      .innerJoin(flights, eq(flights.id, flightTasks.flightId))
      .where(and(isNotNull(flightTasks.integratedAt), isNull(flightTasks.testedAt)))
      .limit(1);
    if (!next) return null;
    const claimed = await tx
      .update(flightTasks)
      .set({ testedAt: now })
      .where(and(eq(flightTasks.flightId, next.flight.id), isNotNull(flightTasks.integratedAt), isNull(flightTasks.testedAt)))
      .returning({ taskId: flightTasks.taskId });
    if (claimed.length === 0) return null;
    const taskIds = claimed.map((c) => c.taskId);
    await appendEvent(tx, { kind: "SuiteStarted", actor: tester.id, taskId: next.flight.goalTaskId, t: now, data: { flightId: next.flight.id, taskIds } });
    return { flight: next.flight, taskIds };
  });
}

export interface SuiteOutcome {
  runId: string;
  passed: boolean;
  exitCode: number | null;
}

/**
 * The suite decides the flight once its plan is recorded and every task of it is integrated: green if it
 * passes, red if it fails — a run that began before the last integration decides nothing (the next round does).
 * Before that the flight keeps working whatever the suite says (a task not yet integrated may be the one
 * that fixes it: two independent failing tests, each its own task); the run is journalled either way.
 */
export async function recordSuiteRun(db: Db, tester: Principal, flight: Flight, outcome: SuiteOutcome, clock: Clock): Promise<Flight["status"]> {
  return db.transaction(async (tx) => {
    const now = clock.now();
    const [open] = await tx
      .select({ id: tasks.id })
      .from(flightTasks)
      .innerJoin(tasks, eq(tasks.id, flightTasks.taskId))
      // Not integrated yet, or integrated after this round began (a later round tests it): not this run's to judge.
      // (a task cancelled by a re-plan, with its ADR, is no part of the flight's result)
      .where(and(eq(flightTasks.flightId, flight.id), ne(tasks.status, "cancelled"), or(isNull(flightTasks.integratedAt), isNull(flightTasks.testedAt))))
      .limit(1);
    const [{ plannedAt }] = await tx.select({ plannedAt: flights.plannedAt }).from(flights).where(eq(flights.id, flight.id));
    const status = open || !plannedAt ? "working" : outcome.passed ? "green" : "red";
    await tx.update(flights).set({ status, updatedAt: now }).where(eq(flights.id, flight.id));
    await appendEvent(tx, {
      kind: "SuiteRan",
      actor: tester.id,
      runId: outcome.runId,
      taskId: flight.goalTaskId,
      t: now,
      data: { flightId: flight.id, passed: outcome.passed, exitCode: outcome.exitCode, status },
    });
    return status;
  });
}

// The tester's side of a flight: claim the round of integrations to test, then record the suite's
// verdict, which decides the flight's status (red, still working, or green).
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import { flights, flightTasks, tasks } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principals/types";
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

/** Red if the suite failed; green once every task of the flight is integrated; else still working. */
export async function recordSuiteRun(db: Db, tester: Principal, flight: Flight, outcome: SuiteOutcome, clock: Clock): Promise<Flight["status"]> {
  return db.transaction(async (tx) => {
    const now = clock.now();
    const [open] = await tx
      .select({ id: tasks.id })
      .from(flightTasks)
      .innerJoin(tasks, eq(tasks.id, flightTasks.taskId))
      .where(and(eq(flightTasks.flightId, flight.id), isNull(flightTasks.integratedAt)))
      .limit(1);
    const status = !outcome.passed ? "red" : open ? "working" : "green";
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

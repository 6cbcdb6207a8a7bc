// Re-planning: a subtask handed back after its tries (SUBTASK_TRIES, domain/flights/hand-back.ts), or given
// up by its coder after its reviews, goes to
// the flight's orchestrator, which re-plans once — cancels it with an ADR and plans what replaces it. A
// second task handed back in a flight already re-planned sends the goal back to its human.
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { events, flights, flightTasks, tasks } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { reclaimShare } from "../budgets/task-shares";
import { appendEvent } from "../journal/append";
import { payloadOf } from "../journal/payloads";
import type { Principal } from "../principal";
import type { TaskRow } from "../tasks/view";
import type { Flight } from "./launch";
import { GAVE_UP } from "./hand-back";
import { fundTasks } from "./plan";

export interface HandedBack {
  flight: Flight;
  task: TaskRow;
  /** Why each try ended, oldest first. */
  reasons: string[];
  /** How it came back, after "task #N": out of tries, or given up by its coder after its reviews. */
  cameBack: string;
}

/**
 * The oldest task handed back for re-planning in a working flight, not yet dealt with. The first in a
 * flight is taken to re-plan (replanned_at set, FlightReplanning journalled, in one transaction: a second
 * orchestrator skips the locked flight); the next, in a flight already re-planned, is for handing back.
 */
export async function takeHandedBack(db: Db, orchestrator: Principal, clock: Clock): Promise<(HandedBack & { replan: boolean }) | null> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({ flight: flights, task: tasks })
      .from(events)
      .innerJoin(tasks, eq(tasks.id, events.taskId))
      .innerJoin(flightTasks, eq(flightTasks.taskId, tasks.id))
      .innerJoin(flights, eq(flights.id, flightTasks.flightId))
      .where(
        and(
          eq(events.kind, "TaskReleased"),
          sql`(${events.data}->>'replan')::boolean`,
          eq(tasks.status, "ready"),
          eq(flights.status, "working"),
          // Not dealt with yet: no re-plan named it since this release (after a human's retry it may come back again).
          sql`not exists (select from events r where r.kind = 'FlightReplanning' and r.task_id = ${tasks.id} and r.id > ${events.id})`,
        ),
      )
      .orderBy(asc(events.id))
      .limit(1)
      .for("update", { of: flights, skipLocked: true });
    if (!found) return null;
    const released = await tx
      .select({ kind: events.kind, data: events.data })
      .from(events)
      .where(and(eq(events.kind, "TaskReleased"), eq(events.taskId, found.task.id)))
      .orderBy(asc(events.id));
    const releases = released.map((e) => payloadOf(e, "TaskReleased"));
    const reasons = releases.map((r) => r.reason);
    const latest = releases.at(-1)!;
    const cameBack = latest.outcome === GAVE_UP ? `was given up by its coder (${latest.reason})` : `was not finished after ${reasons.length} tries`;
    const replan = found.flight.replannedAt === null;
    if (replan) {
      await tx
        .update(flights)
        .set({ replannedAt: now, updatedAt: now })
        .where(and(eq(flights.id, found.flight.id), isNull(flights.replannedAt)));
    }
    await appendEvent(tx, {
      kind: "FlightReplanning",
      actor: orchestrator.id,
      taskId: found.task.id,
      t: now,
      data: { flightId: found.flight.id, number: found.task.number, tries: reasons.length, replan },
    });
    return { flight: found.flight, task: found.task, reasons, cameBack, replan };
  });
}

/** What a re-plan did: the tasks it cancelled (their unspent shares come back) and the ones it filed (funded from what is free). */
export async function recordReplan(
  db: Db,
  orchestrator: Principal,
  handedBack: HandedBack,
  plan: { runId: string | null; cancelled: number[]; created: { id: string; number: number; title: string; weight?: number }[] },
  clock: Clock,
): Promise<void> {
  const now = clock.now();
  await db.transaction(async (tx) => {
    const cancelled = plan.cancelled.length
      ? await tx
          .select({ id: tasks.id })
          .from(tasks)
          .innerJoin(flightTasks, eq(flightTasks.taskId, tasks.id))
          .where(and(eq(flightTasks.flightId, handedBack.flight.id), inArray(tasks.number, plan.cancelled)))
      : [];
    for (const task of cancelled) await reclaimShare(tx, task.id, orchestrator.id, now);
    const funded = await fundTasks(tx, orchestrator, handedBack.flight, plan.created, now);
    await appendEvent(tx, {
      kind: "FlightReplanned",
      actor: orchestrator.id,
      runId: plan.runId,
      taskId: handedBack.flight.goalTaskId,
      t: now,
      data: {
        flightId: handedBack.flight.id,
        handedBack: handedBack.task.number,
        cancelled: plan.cancelled,
        tasks: plan.created.map(({ id, number, title }) => ({ id, number, title })),
        ...(funded && { shares: funded.shares, reserve: funded.reserve }),
      },
    });
  });
}

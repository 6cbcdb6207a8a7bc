// Integration: an accepted task's branch is merged into its flight's branch only when the approver's ACCEPT
// exists (the board's gate), and the merge, its mark and TaskIntegrated commit together. A merge that
// conflicts sends the task back to its coder as rework, the conflict its new evidence.
import { and, asc, desc, eq, isNull, sql } from "drizzle-orm";
import { events, flights, flightTasks, tasks } from "../../db/schema";
import type { Db, Executor, Tx } from "../../db/client";
import type { Clock } from "../clock";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { backToReady } from "../tasks/back-to-ready";
import { reopenInTransaction } from "../tasks/reopen";
import { requireAccepted } from "../tasks/require-accepted";
import { lockTask, type TaskRow } from "../tasks/view";
import { placeOf, type FlightPlace } from "./place";

export interface Integration {
  task: TaskRow;
  place: FlightPlace;
}

/** The oldest done task of a working flight that is not integrated yet (a task waiting for another is done only after it). */
export async function nextTaskToIntegrate(db: Db): Promise<Integration | null> {
  const [next] = await db
    .select({ task: tasks, flight: flights })
    .from(flightTasks)
    .innerJoin(tasks, eq(tasks.id, flightTasks.taskId))
    .innerJoin(flights, eq(flights.id, flightTasks.flightId))
    .where(
      and(
        eq(tasks.status, "done"),
        isNull(flightTasks.integratedAt),
        // A flight whose integration was refused waits for its human's retry (IntegrationRefused, below).
        sql`not exists (select 1 from events r where r.kind = 'IntegrationRefused' and r.data->>'flightId' = ${flights.id}::text
          and r.id > coalesce((select max(f.id) from events f where f.kind = 'FlightRetried' and f.data->>'flightId' = ${flights.id}::text), 0))`,
      ),
    )
    .orderBy(asc(tasks.number))
    .limit(1);
  return next ? { task: next.task, place: placeOf(next.flight) } : null;
}

export type IntegrationOutcome = { commit: string } | { conflict: string; files: string[] } | { refused: { actual: string; unexplained: string[] } };

/** What the git side found: a merge commit, a conflict in git's words, or a branch that moved under it. */
export type MergeResult = { commit: string } | { conflict: string } | { moved: { actual: string; unexplained: string[] } };

/**
 * Where the flight's branch must stand before a merge: its last integration's commit, else the commit the
 * flight started from. Anything else put there commits no reviewed task explains (a flight working in
 * place, on main, has no such point: null).
 */
async function expectedHead(tx: Tx, place: FlightPlace): Promise<string | null> {
  if (!place.baseCommit) return null;
  return (await lastIntegratedCommit(tx, place.flightId)) ?? place.baseCommit;
}

/** The commit the flight's branch stands at after its last integration (what its goal's review shows); null before any. */
export async function lastIntegratedCommit(tx: Executor, flightId: string): Promise<string | null> {
  const [last] = await tx
    .select({ commit: sql<string>`${events.data}->>'commit'` })
    .from(events)
    .where(and(eq(events.kind, "TaskIntegrated"), sql`${events.data}->>'flightId' = ${flightId}`))
    .orderBy(desc(events.id))
    .limit(1);
  return last?.commit ?? null;
}

/**
 * Integrates one task: throws `not_accepted` without the approver's ACCEPT (a precondition in code, not a
 * prompt), then takes the task's integration row, runs `merge` (the git side) and, in the same transaction,
 * either marks it with TaskIntegrated or, on a conflict, reopens it with the conflict as evidence, offered
 * to its owner (IntegrationConflicted). A failed merge rolls back; a second integrator gets null.
 */
export async function integrateTask(
  db: Db,
  integrator: Principal,
  next: Integration,
  merge: (expected: string | null) => MergeResult,
  clock: Clock,
): Promise<IntegrationOutcome | null> {
  return db.transaction(async (tx) => {
    const acceptance = await requireAccepted(tx, next.task.id);
    const now = clock.now();
    const [mine] = await tx
      .select({ taskId: flightTasks.taskId })
      .from(flightTasks)
      .where(and(eq(flightTasks.taskId, next.task.id), isNull(flightTasks.integratedAt)))
      .for("update", { skipLocked: true });
    if (!mine) return null;
    const merged = merge(await expectedHead(tx, next.place));
    if ("moved" in merged) return refuse(tx, integrator, next, merged.moved, now);
    if ("conflict" in merged) {
      const files = conflictedFiles(merged.conflict);
      const owner = next.task.ownerId;
      await reopenInTransaction(tx, integrator, next.task.id, { evidence: merged.conflict }, now, owner);
      await appendEvent(tx, {
        kind: "IntegrationConflicted",
        actor: integrator.id,
        taskId: next.task.id,
        t: now,
        data: { flightId: next.place.flightId, number: next.task.number, branch: next.place.branch, files, offeredTo: owner },
      });
      return { conflict: merged.conflict, files };
    }
    await tx.update(flightTasks).set({ integratedAt: now }).where(eq(flightTasks.taskId, next.task.id));
    await appendEvent(tx, {
      kind: "TaskIntegrated",
      actor: integrator.id,
      taskId: next.task.id,
      t: now,
      data: { flightId: next.place.flightId, commit: merged.commit, acceptance, branch: next.place.branch },
    });
    return merged;
  });
}

/** The file list a conflict report opens with (agents/team/workspace.ts writes it: a heading, then one path a line). */
function conflictedFiles(report: string): string[] {
  const [, list = ""] = report.split(/conflicted in:\n/);
  return list.split("\n\n")[0].split("\n").filter(Boolean);
}

/** Records that the flight's branch reached the user's repository, or why git refused. */
export async function recordBranchPublished(db: Db, integrator: Principal, place: FlightPlace, commit: string, refused: string | null, clock: Clock): Promise<void> {
  if (!place.source) return;
  await db.transaction(async (tx) => {
    await appendEvent(tx, {
      kind: "FlightBranchPublished",
      actor: integrator.id,
      taskId: place.goalTaskId,
      t: clock.now(),
      data: { flightId: place.flightId, branch: place.branch, source: place.source!, commit, refused },
    });
  });
}

/**
 * The flight's branch moved by commits no reviewed task explains: nothing is merged, the flight goes red
 * and its goal back to its human (ready, unowned), who looks at the branch and retries the flight.
 */
async function refuse(tx: Tx, integrator: Principal, next: Integration, moved: { actual: string; unexplained: string[] }, now: Date): Promise<IntegrationOutcome> {
  const { place, task } = next;
  await tx.update(flights).set({ status: "red", updatedAt: now }).where(eq(flights.id, place.flightId));
  const goal = await lockTask(tx, place.goalTaskId);
  if (goal.status === "in_progress") await backToReady(tx, goal.id, now);
  const expected = (await expectedHead(tx, place)) ?? "";
  await appendEvent(tx, {
    kind: "IntegrationRefused",
    actor: integrator.id,
    taskId: task.id,
    t: now,
    data: { flightId: place.flightId, number: task.number, branch: place.branch, expected, actual: moved.actual, unexplained: moved.unexplained.slice(0, 20) },
  });
  return { refused: moved };
}

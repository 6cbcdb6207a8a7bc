// Integration: an accepted task's branch is merged into `main` only when the approver's ACCEPT exists
// (the board's gate), and the merge, its mark and TaskIntegrated commit together.
import { and, asc, eq, isNull } from "drizzle-orm";
import { flights, flightTasks, tasks } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principals/types";
import { requireAccepted } from "../tasks/require-accepted";
import type { TaskRow } from "../tasks/view";

export interface Integration {
  task: TaskRow;
  repo: string;
  flightId: string;
  goalTaskId: string;
}

/** The oldest done task of a flight that is not integrated yet. */
export async function nextTaskToIntegrate(db: Db): Promise<Integration | null> {
  const [next] = await db
    .select({ task: tasks, repo: flights.repo, flightId: flights.id, goalTaskId: flights.goalTaskId })
    .from(flightTasks)
    .innerJoin(tasks, eq(tasks.id, flightTasks.taskId))
    .innerJoin(flights, eq(flights.id, flightTasks.flightId))
    .where(and(eq(tasks.status, "done"), isNull(flightTasks.integratedAt)))
    .orderBy(asc(tasks.number))
    .limit(1);
  return next ?? null;
}

/**
 * Integrates one task: throws `not_accepted` without the approver's ACCEPT (a precondition in code,
 * not a prompt), then marks it, runs `merge` (the git side, returning the commit) and journals
 * TaskIntegrated in one transaction — a failed merge rolls the mark back; a second integrator finds
 * it marked and gets null.
 */
export async function integrateTask(db: Db, integrator: Principal, next: Integration, merge: () => string, clock: Clock): Promise<string | null> {
  return db.transaction(async (tx) => {
    const acceptance = await requireAccepted(tx, next.task.id);
    const now = clock.now();
    const [mine] = await tx
      .update(flightTasks)
      .set({ integratedAt: now })
      .where(and(eq(flightTasks.taskId, next.task.id), isNull(flightTasks.integratedAt)))
      .returning();
    if (!mine) return null;
    const commit = merge();
    await appendEvent(tx, { kind: "TaskIntegrated", actor: integrator.id, taskId: next.task.id, t: now, data: { flightId: next.flightId, commit, acceptance } });
    return commit;
  });
}

// Claims one named ready task: sets the owner, a lease and fence + 1, and opens the focus window.
import { eq } from "drizzle-orm";
import { z } from "zod";
import { tasks } from "../../db/schema";
import type { Db, Executor, Tx } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principals/types";
import { openFocusWindow } from "../relay/focus";
import { requireStatus, requireWorker } from "./guards";
import { leaseEnd } from "./lease";
import { lockTask, readTaskView, type TaskRow, type TaskView } from "./view";

export const claimTaskInput = z.strictObject({});
export type ClaimTaskInput = z.infer<typeof claimTaskInput>;

export function hasAcceptanceCriteria(task: Pick<TaskRow, "acceptanceCriteria">): boolean {
  return /\S/.test(task.acceptanceCriteria ?? "");
}

/** What every claim does after the row is taken, in its transaction: the journal and the focus window. */
export async function recordClaim(tx: Executor, task: TaskRow, caller: Principal, via: "claim" | "claim-next", now: Date): Promise<void> {
  await appendEvent(tx, {
    kind: "TaskClaimed",
    actor: caller.id,
    taskId: task.id,
    t: now,
    data: { number: task.number, ownerId: caller.id, fence: task.fence, leaseExpiresAt: task.leaseExpiresAt?.toISOString(), outputCount: task.outputCount, via },
  });
  await openFocusWindow(tx, caller.id, task.id, now);
}

export async function claimTask(db: Db, caller: Principal, taskId: string, clock: Clock): Promise<TaskView> {
  const now = clock.now();
  return db.transaction((tx) => takeTask(tx, caller, taskId, now));
}

/** claimTask inside the caller's transaction (a flight's planning claims its goal with the flight). */
export async function takeTask(tx: Tx, caller: Principal, taskId: string, now: Date): Promise<TaskView> {
  requireWorker(caller);
  const task = await lockTask(tx, taskId);
  requireStatus(task, ["ready"], "claim");
  if (!hasAcceptanceCriteria(task)) {
    throw fail.conflict("task", "no_acceptance_criteria", `task #${task.number} has no acceptance criteria: work cannot start until someone writes down what done means`);
  }
  if (task.approverId === caller.id) {
    throw fail.forbidden("task", `you approve task #${task.number}, so you cannot own it: an approver is never the owner`);
  }
  const [claimed] = await tx
    .update(tasks)
    .set({ status: "in_progress", ownerId: caller.id, fence: task.fence + 1, leaseExpiresAt: leaseEnd(task, now), offeredTo: null, updatedAt: now })
    .where(eq(tasks.id, task.id))
    .returning();
  await recordClaim(tx, claimed, caller, "claim", now);
  return readTaskView(tx, task.id);
}

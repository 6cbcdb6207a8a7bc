// The board's refusals, shared by every state change: wrong status, stale fence, wrong caller.
import { z } from "zod";
import { fail } from "../errors";
import type { Principal } from "../principal";
import type { TaskRow } from "./view";

/** The fencing token every owner write carries (heartbeat, output, submit). */
export const fenceField = z.number().int().min(0);

function requireStatus(task: TaskRow, allowed: TaskRow["status"][], action: string): void {
  if (allowed.includes(task.status)) return;
  throw wrongStatus(task, allowed, action);
}

/** The refusal of an action the task's status does not allow (a claim's comes from quorum_claim_refusal). */
export function wrongStatus(task: TaskRow, allowed: TaskRow["status"][], action: string) {
  return fail.conflict("task", "wrong_status", `cannot ${action} task #${task.number}: it is ${task.status}, not ${allowed.join(" or ")}`, {
    status: task.status,
  });
}

/**
 * Every write by the owner carries the fence it got when it claimed. A different fence, or a task
 * back in ready (its lease expired or it was reopened), means the writer lost the lease: its write
 * must change nothing, and `stale_fence` tells a worker that died and came back to stop.
 */
export function requireOwnerWrite(task: TaskRow, caller: Principal, fence: number, action: string): void {
  if (task.fence !== fence || task.status === "ready") {
    const why = task.fence !== fence ? `task #${task.number} is at fence ${task.fence}` : `task #${task.number} went back to ready`;
    throw fail.conflict("task", "stale_fence", `cannot ${action}: fence ${fence} no longer holds the lease (${why})`, { fence: task.fence });
  }
  requireStatus(task, ["in_progress"], action);
  if (task.ownerId !== caller.id) throw fail.forbidden("task", `only the owner of task #${task.number} may ${action}`);
}

/** Humans oversee the board; the creator and the approver have a say over their own task. */
export function requireSteward(task: TaskRow, caller: Principal, action: string): void {
  if (caller.kind === "human" || caller.id === task.createdBy || caller.id === task.approverId) return;
  throw fail.forbidden("task", `only a human, the creator or the approver of task #${task.number} may ${action}`);
}

export function requireWorker(caller: Principal): void {
  if (caller.kind === "system") throw fail.forbidden("task", "the system principal announces; it does not file or work tasks");
}

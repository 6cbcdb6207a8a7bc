// Claims one named ready task: sets the owner, a lease and fence + 1, and opens the focus window.
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { tasks } from "../../db/schema";
import type { Db, Tx } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import type { Principal } from "../principal";
import { CLAIMED_COLUMNS, CLAIMED_TASK, claimedView } from "./claimed";
import { unfinishedDependencies } from "./dependencies";
import { requireWorker, wrongStatus } from "./guards";
import { globalLeaseSeconds } from "./lease";
import { assertTaskId, type TaskRow, type TaskView } from "./view";

export const claimTaskInput = z.strictObject({});
export type ClaimTaskInput = z.infer<typeof claimTaskInput>;

/** Why a claimer may not take a task: quorum_claim_refusal's codes (db/functions/quorum_claim_refusal.sql). */
type ClaimRefusal = "wrong_status" | "no_acceptance_criteria" | "waiting" | "approver";

export async function claimTask(db: Db, caller: Principal, taskId: string, clock: Clock): Promise<TaskView> {
  const now = clock.now();
  return db.transaction((tx) => takeTask(tx, caller, taskId, now));
}

/** claimTask inside the caller's transaction (a flight's planning claims its goal with the flight). */
export async function takeTask(tx: Tx, caller: Principal, taskId: string, now: Date): Promise<TaskView> {
  requireWorker(caller);
  const { task, refusal } = await lockForClaim(tx, taskId, caller);
  if (refusal) refuse(task, refusal, refusal === "waiting" ? await unfinishedDependencies(tx, task.id) : []);
  // Written as every claim is (db/functions/quorum_start_work.sql): the row is locked and the rule allows it.
  const [row] = await tx.execute<Record<string, unknown>>(sql`
    select ${sql.raw(CLAIMED_COLUMNS)}
    from quorum_start_work(array[${task.id}::uuid], array[${caller.id}::uuid], array[${caller.kind}], array[${now.toISOString()}::timestamptz], ${globalLeaseSeconds()}::int, 'claim') w
      ${sql.raw(CLAIMED_TASK)}`);
  return claimedView(row, caller);
}

/** Locks the task row for the claim, and asks the rule whether this caller may take it. */
async function lockForClaim(tx: Tx, taskId: string, caller: Principal): Promise<{ task: TaskRow; refusal: ClaimRefusal | null }> {
  assertTaskId(taskId);
  const [row] = await tx
    .select({
      task: tasks,
      refusal: sql<ClaimRefusal | null>`quorum_claim_refusal(${tasks.status}, ${tasks.acceptanceCriteria}, ${tasks.approverId}, ${caller.id}::uuid, ${tasks.waitingOn})`,
    })
    .from(tasks)
    .where(eq(tasks.id, taskId))
    .for("update");
  if (!row) throw fail.notFound("task", `no task with id '${taskId}'`);
  return row;
}

/** Words the rule's refusal for the caller, as a claim by id has always put it. */
function refuse(task: TaskRow, refusal: ClaimRefusal, waitingFor: number[]): never {
  switch (refusal) {
    case "wrong_status":
      throw wrongStatus(task, ["ready"], "claim");
    case "no_acceptance_criteria":
      throw fail.conflict("task", "no_acceptance_criteria", `task #${task.number} has no acceptance criteria: work cannot start until someone writes down what done means`);
    case "waiting":
      throw fail.conflict("task", "waiting_on_dependencies", `task #${task.number} waits for ${waitingFor.map((n) => `#${n}`).join(", ")} to be finished first`, {
        waitingFor,
      });
    case "approver":
      throw fail.forbidden("task", `you approve task #${task.number}, so you cannot own it: an approver is never the owner`);
  }
}

// The integration gate: a harness integrates a task's result only after its approver's ACCEPT.
import { desc, eq } from "drizzle-orm";
import { taskReviews } from "../../db/schema";
import type { Executor } from "../../db/client";
import { fail } from "../errors";
import type { Acceptance } from "../journal/payloads";
import { lockTask } from "./view";

/**
 * Throws (409 `not_accepted`) unless the task is done and its latest verdict is an ACCEPT by its
 * approver. A precondition in code, not a prompt: the harness calls it before integrating
 * anything. Run it inside the integrating transaction to hold the task still (it takes the row lock).
 */
export async function requireAccepted(db: Executor, taskId: string): Promise<Acceptance> {
  const task = await lockTask(db, taskId);
  const [latest] = await db.select().from(taskReviews).where(eq(taskReviews.taskId, task.id)).orderBy(desc(taskReviews.id)).limit(1);
  const accepted = task.status === "done" && latest?.verdict === "accept" && latest.reviewerId === task.approverId;
  if (!accepted) {
    const why = task.status !== "done" ? `it is ${task.status}` : "its approver has not accepted it";
    throw fail.conflict("task", "not_accepted", `task #${task.number} cannot be integrated: ${why}; integration needs the approver's ACCEPT`, {
      status: task.status,
    });
  }
  return { taskId: task.id, reviewerId: latest.reviewerId, ownerId: latest.ownerId, acceptedAt: latest.createdAt };
}

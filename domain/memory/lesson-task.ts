// A lesson names the task it was learned on, and that must be a real task its source worked: owned
// (now, or by a claim on record, in the journal or its archive) or reviewed (its approver, or a verdict on record). A made-up or
// someone else's task id is refused, so a lesson's task cannot be invented to pad its evidence.
import { and, eq, sql } from "drizzle-orm";
import { events, journalArchivedTasks, taskReviews, tasks } from "../../db/schema";
import type { Executor } from "../../db/client";
import { fail } from "../errors";
import type { Principal } from "../principal";

export async function requireWorkedTask(tx: Executor, source: Principal, taskId: string): Promise<void> {
  const [task] = await tx.select({ ownerId: tasks.ownerId, approverId: tasks.approverId }).from(tasks).where(eq(tasks.id, taskId));
  if (!task) throw fail.notFound("lesson", `no task ${taskId}: a lesson names the real task it was learned on`);
  if (task.ownerId === source.id || task.approverId === source.id) return;
  const [claimed] = await tx
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.taskId, taskId), eq(events.kind, "TaskClaimed"), sql`${events.data}->>'ownerId' = ${source.id}`))
    .limit(1);
  if (claimed) return;
  // A claim whose month was archived is remembered with the archive (DESIGN §4).
  const [archivedClaim] = await tx
    .select({ taskId: journalArchivedTasks.taskId })
    .from(journalArchivedTasks)
    .where(and(eq(journalArchivedTasks.taskId, taskId), sql`${source.id} = any(${journalArchivedTasks.claimedBy})`))
    .limit(1);
  if (archivedClaim) return;
  const [reviewed] = await tx
    .select({ id: taskReviews.id })
    .from(taskReviews)
    .where(and(eq(taskReviews.taskId, taskId), eq(taskReviews.reviewerId, source.id)))
    .limit(1);
  if (reviewed) return;
  throw fail.forbidden("lesson", `you neither owned nor reviewed task ${taskId}: record a lesson only for a task you worked`);
}

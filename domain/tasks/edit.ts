// A ready task can be fixed before anyone takes it: its title, description, criteria or approver, by the
// one who filed it or by a human. Once claimed, the words are what its owner works to, so they stay. Its target
// tests are what its review's gate checks: a human may correct them until the task is done or cancelled.
import { eq } from "drizzle-orm";
import { z } from "zod";
import { principals, tasks } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { visibleLength } from "../visible-text";
import { targetTestsInput } from "../verification/test-results";
import { textField } from "./text";
import { lockTask, readTaskView, type TaskView } from "./view";

export const EDITABLE_FIELDS = ["title", "description", "acceptanceCriteria", "approverId", "targetTests"] as const;
export type EditedField = (typeof EDITABLE_FIELDS)[number];

export const editTaskInput = z
  .strictObject({
    title: textField(200, "a task needs a title").optional(),
    description: textField(20_000).optional(),
    acceptanceCriteria: textField(20_000).optional(),
    approverId: z.uuid().optional(),
    targetTests: targetTestsInput.optional(),
  })
  .refine((input) => EDITABLE_FIELDS.some((field) => input[field] !== undefined), `change at least one of ${EDITABLE_FIELDS.join(", ")}`);
export type EditTaskInput = z.infer<typeof editTaskInput>;

export async function editTask(db: Db, caller: Principal, taskId: string, input: EditTaskInput, clock: Clock): Promise<TaskView> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const task = await lockTask(tx, taskId);
    if (caller.kind !== "human" && caller.id !== task.createdBy) throw fail.forbidden("task", "only the task's creator or a human edits it");
    const targetsOnly = Object.keys(input).every((field) => field === "targetTests");
    const open = task.status === "ready" || (targetsOnly && caller.kind === "human" && task.status !== "done" && task.status !== "cancelled");
    if (!open) {
      const what = targetsOnly ? "a human may change the target tests of an open task" : "only a ready task can be edited";
      throw fail.conflict("task", "wrong_status", `${what}: #${task.number} is ${task.status.replace("_", " ")}`, { status: task.status });
    }
    if (input.approverId !== undefined) {
      const [approver] = await tx.select({ kind: principals.kind }).from(principals).where(eq(principals.id, input.approverId));
      if (!approver) throw fail.notFound("task", `no principal with id '${input.approverId}' to approve this task`);
      if (approver.kind === "system") throw fail.forbidden("task", "the system principal does not approve tasks");
    }
    const criteria = input.acceptanceCriteria === undefined ? undefined : visibleLength(input.acceptanceCriteria) > 0 ? input.acceptanceCriteria : null;
    const next = {
      title: input.title ?? task.title,
      description: input.description ?? task.description,
      acceptanceCriteria: criteria === undefined ? task.acceptanceCriteria : criteria,
      approverId: input.approverId ?? task.approverId,
      targetTests: input.targetTests === undefined ? task.targetTests : input.targetTests.length ? [...new Set(input.targetTests)] : null,
    };
    const same = (field: EditedField) =>
      field === "targetTests" ? JSON.stringify(next.targetTests ?? []) === JSON.stringify(task.targetTests ?? []) : next[field] === task[field];
    const changed = EDITABLE_FIELDS.filter((field) => !same(field));
    if (changed.length === 0) return readTaskView(tx, task.id);
    await tx
      .update(tasks)
      .set({ ...next, updatedAt: now })
      .where(eq(tasks.id, task.id));
    await appendEvent(tx, {
      kind: "TaskEdited",
      actor: caller.id,
      taskId: task.id,
      t: now,
      data: { number: task.number, changed, title: next.title, approverId: next.approverId, hasAcceptanceCriteria: next.acceptanceCriteria !== null },
    });
    return readTaskView(tx, task.id);
  });
}

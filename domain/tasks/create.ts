// Creates a ready task; its approver defaults to the creator and is never the one who works it.
import { eq } from "drizzle-orm";
import { z } from "zod";
import { targetTestsInput } from "../verification/test-results";
import { principals, tasks } from "../../db/schema";
import type { Db, Tx } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { addDependencies, MAX_DEPENDENCIES } from "./dependencies";
import { requireWorker } from "./guards";
import { visibleLength } from "../visible-text";
import { textField } from "./text";
import { readTaskView, type TaskView } from "./view";

export const createTaskInput = z.strictObject({
  title: textField(200, "a task needs a title"),
  description: textField(20_000).optional(),
  /** Required to start work, not to file the task: a claim without criteria is refused. */
  acceptanceCriteria: textField(20_000).optional(),
  approverId: z.uuid().optional(),
  parentId: z.uuid().optional(),
  /** This task's lease length; without it the global default applies. */
  leaseMinutes: z.number().int().min(1).max(1440).optional(),
  /** Tasks this one waits for: it is claimed only once each is finished (a cycle is refused). */
  dependsOn: z.array(z.uuid()).max(MAX_DEPENDENCIES).optional(),
  /** The tests it is meant to make pass: its review's gate wants each seen passing (domain/tasks/tests.ts). */
  targetTests: targetTestsInput.optional(),
});
export type CreateTaskInput = z.infer<typeof createTaskInput>;

export async function createTask(db: Db, caller: Principal, input: CreateTaskInput, clock: Clock): Promise<TaskView> {
  const now = clock.now();
  return db.transaction((tx) => insertTask(tx, caller, input, now));
}

/** createTask inside the caller's transaction, for state changes that file a task among others (a flight's). */
export async function insertTask(tx: Tx, caller: Principal, input: CreateTaskInput, now: Date): Promise<TaskView> {
  requireWorker(caller);
  const approverId = input.approverId ?? caller.id;
  const [approver] = await tx.select({ kind: principals.kind }).from(principals).where(eq(principals.id, approverId));
  if (!approver) throw fail.notFound("task", `no principal with id '${approverId}' to approve this task`);
  if (approver.kind === "system") throw fail.forbidden("task", "the system principal does not approve tasks");
  if (input.parentId) {
    const [parent] = await tx.select({ id: tasks.id }).from(tasks).where(eq(tasks.id, input.parentId));
    if (!parent) throw fail.notFound("task", `no parent task with id '${input.parentId}'`);
  }
  const [row] = await tx
    .insert(tasks)
    .values({
      title: input.title,
      description: input.description ?? "",
      // Criteria a reader cannot see (zero-width characters only) are no criteria: work may not start on them.
      acceptanceCriteria: input.acceptanceCriteria && visibleLength(input.acceptanceCriteria) > 0 ? input.acceptanceCriteria : null,
      approverId,
      parentId: input.parentId ?? null,
      leaseMinutes: input.leaseMinutes ?? null,
      targetTests: input.targetTests?.length ? [...new Set(input.targetTests)] : null,
      createdBy: caller.id,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await addDependencies(tx, row.id, input.dependsOn ?? []);
  await appendEvent(tx, {
    kind: "TaskCreated",
    actor: caller.id,
    taskId: row.id,
    t: now,
    data: {
      number: row.number,
      title: row.title,
      approverId,
      parentId: row.parentId,
      hasAcceptanceCriteria: row.acceptanceCriteria !== null,
      leaseMinutes: row.leaseMinutes,
      ...(input.dependsOn?.length ? { dependsOn: [...new Set(input.dependsOn)] } : {}),
    },
  });
  return readTaskView(tx, row.id);
}

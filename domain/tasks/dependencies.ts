// "This task waits for that one": the edges a task is filed with, and which of them still hold it back.
// The rule (when a dependency is met, and that no edge closes a cycle) lives in SQL: quorum_waiting_on and
// quorum_task_dependency_acyclic in db/functions/; a claim reads it through quorum_claim_refusal.
import { inArray, sql } from "drizzle-orm";
import { taskDependencies, tasks } from "../../db/schema";
import type { Executor, Tx } from "../../db/client";
import { fail } from "../errors";

/** At most this many dependencies per task: a plan of a few tasks, not a graph to search. */
export const MAX_DEPENDENCIES = 20;

/** Records that `taskId` waits for each of `dependsOn` (task ids); a cycle is refused with its path (409 cycle). */
export async function addDependencies(tx: Tx, taskId: string, dependsOn: readonly string[]): Promise<void> {
  const wanted = [...new Set(dependsOn)];
  if (wanted.length === 0) return;
  if (wanted.length > MAX_DEPENDENCIES) throw fail.invalid("task", `a task may depend on at most ${MAX_DEPENDENCIES} others`);
  const found = await tx.select({ id: tasks.id }).from(tasks).where(inArray(tasks.id, wanted));
  const missing = wanted.filter((id) => !found.some((row) => row.id === id));
  if (missing.length) throw fail.notFound("task", `no task with id '${missing[0]}' to depend on`);
  try {
    await tx.insert(taskDependencies).values(wanted.map((dependsOnId) => ({ taskId, dependsOnId })));
  } catch (error) {
    const cause = (error as { cause?: { hint?: string; message?: string } }).cause ?? (error as { hint?: string; message?: string });
    if (cause.hint !== "quorum:cycle") throw error;
    const path = (cause.message ?? "").replace(/^.*cycle: /, "");
    throw fail.conflict("task", "cycle", `this dependency would close a cycle: ${path}`, { path: path.split(" -> ") }, undefined, error);
  }
}

/** The numbers of the tasks `taskId` depends on that are not finished yet (quorum_waiting_on's answer). */
export async function unfinishedDependencies(db: Executor, taskId: string): Promise<number[]> {
  const [row] = await db.execute<{ numbers: (string | number)[] }>(sql`select quorum_waiting_on(${taskId}::uuid) as numbers`);
  return (row?.numbers ?? []).map(Number);
}

/** Every task `taskIds` depend on, by task: what the board shows as "waits for". */
export async function dependenciesOf(db: Executor, taskIds: readonly string[]): Promise<Map<string, { id: string; number: number; status: string }[]>> {
  const byTask = new Map<string, { id: string; number: number; status: string }[]>();
  if (taskIds.length === 0) return byTask;
  const rows = await db
    .select({ taskId: taskDependencies.taskId, id: tasks.id, number: tasks.number, status: tasks.status })
    .from(taskDependencies)
    .innerJoin(tasks, sql`${tasks.id} = ${taskDependencies.dependsOnId}`)
    .where(inArray(taskDependencies.taskId, [...taskIds]))
    .orderBy(tasks.number);
  for (const { taskId, ...dependency } of rows) byTask.set(taskId, [...(byTask.get(taskId) ?? []), dependency]);
  return byTask;
}

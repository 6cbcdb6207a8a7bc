// Lists tasks for the board, newest first, by status or context, with cursor pagination on the task number.
import { and, count, desc, eq, gt, inArray, isNull, lt, or } from "drizzle-orm";
import { z } from "zod";
import { TASK_STATUSES, tasks } from "../../db/schema";
import type { Executor } from "../../db/client";
import type { Page } from "../page";
import { selectTaskViews, toTaskView, type TaskView } from "./view";

export const listTasksQuery = z.strictObject({
  /** One status or several, comma-separated: `?status=ready,in_progress`. */
  status: z
    .string()
    .transform((s) => s.split(",").filter(Boolean))
    .pipe(z.array(z.enum(TASK_STATUSES)).min(1))
    .optional(),
  /** The tasks of one context (`taskContext`): a task and the tasks filed under it, as a flight's goal and its tasks. */
  context: z.uuid().optional(),
  /** Only tasks changed after this moment (ISO 8601). */
  updatedAfter: z.iso.datetime({ offset: true }).optional(),
  /** The next page: tasks numbered below this one. */
  before: z.coerce.number().int().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});
export type ListTasksQuery = z.infer<typeof listTasksQuery>;

/**
 * A task's context: the task it was filed under (a flight's tasks share their goal), or itself when it was filed
 * under none. The SQL below is the same rule, for filtering.
 */
export function taskContext(task: Pick<TaskView, "id" | "parentId">): string {
  return task.parentId ?? task.id;
}

function whereOf(query: Omit<ListTasksQuery, "before" | "limit">) {
  return and(
    query.status ? inArray(tasks.status, query.status) : undefined,
    // coalesce(parent_id, id) = context, spelled so that the parent and primary key indexes answer it.
    query.context ? or(eq(tasks.parentId, query.context), and(eq(tasks.id, query.context), isNull(tasks.parentId))) : undefined,
    query.updatedAfter ? gt(tasks.updatedAt, new Date(query.updatedAfter)) : undefined,
  );
}

export async function listTasks(db: Executor, query: ListTasksQuery): Promise<Page<TaskView>> {
  const limit = query.limit ?? 100;
  const rows = await selectTaskViews(db)
    .where(and(whereOf(query), query.before !== undefined ? lt(tasks.number, query.before) : undefined))
    .orderBy(desc(tasks.number))
    .limit(limit + 1);
  const items = rows.slice(0, limit).map(toTaskView);
  return rows.length > limit ? { items, next: items[items.length - 1].number } : { items };
}

/** How many tasks the query's filters hold, every page together. */
export async function countTasks(db: Executor, query: Omit<ListTasksQuery, "before" | "limit">): Promise<number> {
  const [row] = await db.select({ n: count() }).from(tasks).where(whereOf(query));
  return row.n;
}

// Lists tasks for the board, newest first, by status, with cursor pagination on the task number.
import { and, desc, inArray, lt } from "drizzle-orm";
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
  /** The next page: tasks numbered below this one. */
  before: z.coerce.number().int().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});
export type ListTasksQuery = z.infer<typeof listTasksQuery>;

export async function listTasks(db: Executor, query: ListTasksQuery): Promise<Page<TaskView>> {
  const limit = query.limit ?? 100;
  const rows = await selectTaskViews(db)
    .where(and(query.status ? inArray(tasks.status, query.status) : undefined, query.before !== undefined ? lt(tasks.number, query.before) : undefined))
    .orderBy(desc(tasks.number))
    .limit(limit + 1);
  const items = rows.slice(0, limit).map(toTaskView);
  return rows.length > limit ? { items, next: items[items.length - 1].number } : { items };
}

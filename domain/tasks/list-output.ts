// Reads a task's output items in order, so a replacement can resume from what was written.
import { and, asc, eq, gt } from "drizzle-orm";
import { z } from "zod";
import { taskOutputs } from "../../db/schema";
import type { Executor } from "../../db/client";
import { readTaskView } from "./view";

export const listOutputQuery = z.strictObject({
  after: z.coerce.number().int().min(0).max(2_147_483_647).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});
export type ListOutputQuery = z.infer<typeof listOutputQuery>;

export interface OutputItem {
  seq: number;
  item: unknown;
  fence: number;
  authorId: string;
  createdAt: string;
}

export async function listOutput(db: Executor, taskId: string, query: ListOutputQuery): Promise<{ items: OutputItem[]; next?: number }> {
  const task = await readTaskView(db, taskId);
  const limit = query.limit ?? 200;
  const rows = await db
    .select()
    .from(taskOutputs)
    .where(and(eq(taskOutputs.taskId, task.id), gt(taskOutputs.seq, query.after ?? 0)))
    .orderBy(asc(taskOutputs.seq))
    .limit(limit + 1);
  const items = rows.slice(0, limit).map((r) => ({ seq: r.seq, item: r.item, fence: r.fence, authorId: r.authorId, createdAt: r.createdAt.toISOString() }));
  return rows.length > limit ? { items, next: items[items.length - 1].seq } : { items };
}

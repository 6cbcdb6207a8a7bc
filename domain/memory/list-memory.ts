// Reading memory: principles in force (with their sources), recent lessons, and the texts agents are given.
import { desc, lt } from "drizzle-orm";
import { z } from "zod";
import { lessons } from "../../db/schema";
import type { Executor } from "../../db/client";
import type { Page } from "../page";
import { readActivePrinciples, selectLessonViews, toLessonView, toPrincipleViews, type LessonView, type PrincipleView } from "./memory-view";

/**
 * The principles the agent runtime puts at the head of every context (its context policy debits
 * their tokens). Oldest first, so the head of the context changes only by growing at its end.
 */
export async function loadPrinciples(db: Executor): Promise<string[]> {
  return (await readActivePrinciples(db)).map((p) => p.text);
}

export async function listPrinciples(db: Executor): Promise<Page<PrincipleView>> {
  return { items: await toPrincipleViews(db, await readActivePrinciples(db)) };
}

export const listLessonsQuery = z.strictObject({
  before: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});
export type ListLessonsQuery = z.infer<typeof listLessonsQuery>;

export async function listLessons(db: Executor, query: ListLessonsQuery): Promise<Page<LessonView>> {
  const limit = query.limit ?? 50;
  const rows = await selectLessonViews(db)
    .where(query.before ? lt(lessons.number, query.before) : undefined)
    .orderBy(desc(lessons.number))
    .limit(limit + 1);
  const items = rows.slice(0, limit).map(toLessonView);
  return rows.length > limit ? { items, next: items[items.length - 1].number } : { items };
}

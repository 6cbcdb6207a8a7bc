// Finished work registers a lesson; two independent sources of the same lesson promote it to a principle.
import { asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { lessons, principles } from "../../db/schema";
import type { Db, Executor } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principals/types";
import { requireLessonKey } from "./lesson-key";
import { lockLessonKey } from "./memory-lock";
import { selectLessonViews, toLessonView, toPrincipleViews, type LessonView, type PrincipleView } from "./memory-view";

export const recordLessonInput = z.strictObject({
  text: z.string().trim().min(1, "a lesson needs its text").max(2000),
  taskId: z.uuid().optional(),
});
export type RecordLessonInput = z.infer<typeof recordLessonInput>;

export type RecordedLesson = LessonView & { principle: PrincipleView | null };

/**
 * Independence is read from the stored rows, never claimed: the lessons sharing this key must come
 * from two different sources, or name two different tasks. A source cannot pad the count by
 * repeating itself: one lesson per key, source and task (a unique constraint).
 */
async function independentSources(tx: Executor, key: string): Promise<{ sources: number; tasks: number }> {
  const [row] = await tx
    .select({ sources: sql<number>`count(distinct ${lessons.sourceId})::int`, tasks: sql<number>`count(distinct ${lessons.taskId})::int` })
    .from(lessons)
    .where(eq(lessons.key, key));
  return row;
}

export async function recordLesson(db: Db, caller: Principal, input: RecordLessonInput, clock: Clock): Promise<RecordedLesson> {
  if (caller.kind === "system") throw fail.forbidden("lesson", "the system principal learns nothing");
  const key = requireLessonKey(input.text);
  const now = clock.now();
  return db.transaction(async (tx) => {
    await lockLessonKey(tx, key);
    const [lesson] = await tx
      .insert(lessons)
      .values({ text: input.text, key, sourceId: caller.id, taskId: input.taskId ?? null, createdAt: now })
      .onConflictDoNothing()
      .returning();
    if (!lesson) throw fail.conflict("lesson", "duplicate", "you already recorded this lesson for this task: repeating it is not a second source");
    await appendEvent(tx, {
      kind: "LessonRecorded",
      actor: caller.id,
      taskId: lesson.taskId,
      t: now,
      data: { lessonId: lesson.id, text: lesson.text, key },
    });
    const [existing] = await tx.select().from(principles).where(eq(principles.key, key));
    let principle = existing ?? null;
    const { sources, tasks } = await independentSources(tx, key);
    if ((sources >= 2 || tasks >= 2) && !existing?.promotedAt) {
      const [first] = await tx.select({ text: lessons.text }).from(lessons).where(eq(lessons.key, key)).orderBy(asc(lessons.number)).limit(1);
      [principle] = existing
        ? await tx.update(principles).set({ promotedAt: now }).where(eq(principles.id, existing.id)).returning()
        : await tx.insert(principles).values({ key, text: first.text, promotedAt: now, createdAt: now }).returning();
      await appendEvent(tx, {
        kind: "PrinciplePromoted",
        t: now,
        data: { principleId: principle.id, text: principle.text, key, sources, tasks, by: sources >= 2 ? "sources" : "tasks" },
      });
    }
    const [view] = await selectLessonViews(tx).where(eq(lessons.id, lesson.id));
    return { ...toLessonView(view), principle: principle ? (await toPrincipleViews(tx, [principle]))[0] : null };
  });
}

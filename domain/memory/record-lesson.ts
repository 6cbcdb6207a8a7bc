// Finished work registers a lesson; two independent sources of the same lesson promote it to a principle.
// Independent means two different principals, each naming a real task it owned or reviewed (DESIGN §9):
// one principal alone never promotes, however many tasks it names; a human pin needs no sources at all.
import { and, asc, eq, isNotNull, sql } from "drizzle-orm";
import { z } from "zod";
import { lessons, principles } from "../../db/schema";
import type { Db, Executor } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { requireLessonKey } from "./lesson-key";
import { requireWorkedTask } from "./lesson-task";
import { lockLessonKey } from "./memory-lock";
import { selectLessonViews, toLessonView, toPrincipleViews, type LessonView, type PrincipleView } from "./memory-view";

export const recordLessonInput = z.strictObject({
  text: z.string().trim().min(1, "a lesson needs its text").max(2000),
  taskId: z.uuid().optional(),
});
export type RecordLessonInput = z.infer<typeof recordLessonInput>;

export type RecordedLesson = LessonView & { principle: PrincipleView | null };

/** Two different principals make a lesson a principle; the tasks they name are counted only for the record. */
const SOURCES_TO_PROMOTE = 2;

/**
 * Independence is read from the stored rows, never claimed: the lessons sharing this key that name a
 * task (each checked when recorded: one its source owned or reviewed) must come from two different
 * principals. A lesson without a task is kept, but is evidence of nothing. A source cannot pad the
 * count by repeating itself, nor by naming more tasks: sources are counted, not lessons.
 */
async function independentSources(tx: Executor, key: string): Promise<{ sources: number; tasks: number }> {
  const [row] = await tx
    .select({ sources: sql<number>`count(distinct ${lessons.sourceId})::int`, tasks: sql<number>`count(distinct ${lessons.taskId})::int` })
    .from(lessons)
    .where(and(eq(lessons.key, key), isNotNull(lessons.taskId)));
  return row;
}

export async function recordLesson(db: Db, caller: Principal, input: RecordLessonInput, clock: Clock): Promise<RecordedLesson> {
  if (caller.kind === "system") throw fail.forbidden("lesson", "the system principal learns nothing");
  const key = requireLessonKey(input.text);
  const now = clock.now();
  return db.transaction(async (tx) => {
    if (input.taskId) await requireWorkedTask(tx, caller, input.taskId);
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
    if (sources >= SOURCES_TO_PROMOTE && !existing?.promotedAt) {
      const [first] = await tx.select({ text: lessons.text }).from(lessons).where(eq(lessons.key, key)).orderBy(asc(lessons.number)).limit(1);
      [principle] = existing
        ? await tx.update(principles).set({ promotedAt: now }).where(eq(principles.id, existing.id)).returning()
        : await tx.insert(principles).values({ key, text: first.text, promotedAt: now, createdAt: now }).returning();
      await appendEvent(tx, {
        kind: "PrinciplePromoted",
        t: now,
        data: { principleId: principle.id, text: principle.text, key, sources, tasks, by: "sources" },
      });
    }
    const [view] = await selectLessonViews(tx).where(eq(lessons.id, lesson.id));
    return { ...toLessonView(view), principle: principle ? (await toPrincipleViews(tx, [principle]))[0] : null };
  });
}

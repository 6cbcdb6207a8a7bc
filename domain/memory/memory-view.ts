// The JSON shapes of lessons and principles (with the lessons that are their sources) and how to read them.
import { and, asc, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import { lessons, principals, principles } from "../../db/schema";
import type { Executor } from "../../db/client";
import { fail } from "../errors";
import { isUuid } from "../ids";

export type LessonRow = typeof lessons.$inferSelect;
export type PrincipleRow = typeof principles.$inferSelect;
type Kind = "human" | "agent" | "system";

export interface LessonView {
  id: string;
  number: number;
  text: string;
  key: string;
  sourceId: string;
  sourceName: string;
  sourceKind: Kind;
  taskId: string | null;
  createdAt: string;
}

export interface PrincipleView {
  id: string;
  text: string;
  key: string;
  /** Promoted by two independent lessons, pinned by a human, or both. */
  active: boolean;
  promotedAt: string | null;
  pinnedAt: string | null;
  pinnedBy: string | null;
  pinnedByName: string | null;
  sources: LessonView[];
}

/** A principle is in force while it is promoted (which is never undone) or pinned. */
export const isActive = or(isNotNull(principles.promotedAt), isNotNull(principles.pinnedAt))!;

/** In force since its promotion or its pin, whichever came first: a stable order keeps the context head stable. */
export const activeSince = sql`least(${principles.promotedAt}, ${principles.pinnedAt})`;

export function selectLessonViews(db: Executor) {
  return db
    .select({ lesson: lessons, sourceName: principals.name, sourceKind: principals.kind })
    .from(lessons)
    .innerJoin(principals, eq(principals.id, lessons.sourceId))
    .$dynamic();
}

export function toLessonView(row: { lesson: LessonRow; sourceName: string; sourceKind: Kind }): LessonView {
  const { lesson } = row;
  return {
    id: lesson.id,
    number: lesson.number,
    text: lesson.text,
    key: lesson.key,
    sourceId: lesson.sourceId,
    sourceName: row.sourceName,
    sourceKind: row.sourceKind,
    taskId: lesson.taskId,
    createdAt: lesson.createdAt.toISOString(),
  };
}

/** Principle rows become views with their source lessons and who pinned them, in two queries. */
export async function toPrincipleViews(db: Executor, rows: PrincipleRow[]): Promise<PrincipleView[]> {
  if (rows.length === 0) return [];
  const sources = (
    await selectLessonViews(db)
      .where(
        inArray(
          lessons.key,
          rows.map((r) => r.key),
        ),
      )
      .orderBy(asc(lessons.number))
  ).map(toLessonView);
  const pinners = rows.map((r) => r.pinnedBy).filter((id): id is string => id !== null);
  const names = new Map(pinners.length ? (await db.select().from(principals).where(inArray(principals.id, pinners))).map((p) => [p.id, p.name]) : []);
  return rows.map((row) => ({
    id: row.id,
    text: row.text,
    key: row.key,
    active: row.promotedAt !== null || row.pinnedAt !== null,
    promotedAt: row.promotedAt?.toISOString() ?? null,
    pinnedAt: row.pinnedAt?.toISOString() ?? null,
    pinnedBy: row.pinnedBy,
    pinnedByName: row.pinnedBy ? (names.get(row.pinnedBy) ?? "?") : null,
    sources: sources.filter((s) => s.key === row.key),
  }));
}

export async function lockPrinciple(db: Executor, id: string): Promise<PrincipleRow> {
  if (!isUuid(id)) throw fail.notFound("principle", `no principle with id '${id}'`);
  const [row] = await db.select().from(principles).where(eq(principles.id, id)).for("update");
  if (!row) throw fail.notFound("principle", `no principle with id '${id}'`);
  return row;
}

export async function readActivePrinciples(db: Executor): Promise<PrincipleRow[]> {
  return db.select().from(principles).where(and(isActive)).orderBy(asc(activeSince), asc(principles.id));
}

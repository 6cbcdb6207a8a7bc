// Runs and tasks on the bill, newest first (by the first event that named them), with a cursor: the
// snapshot's rows merged with the tail's, so a page is exact even while the tail is unsettled.
import { and, desc, eq, inArray, lt, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { billLines, billRuns, tasks } from "../../db/schema";
import type { Db } from "../../db/client";
import { emptyDelta, mergeBill, type BillDelta } from "./bill-fold";
import type { RunStatus } from "../runs/run-events";
import { emptyView, lineViews, type LineView } from "./line-views";
import type { Page } from "../page";
import type { PriceMap } from "./prices";
import { loadLines, namesOf, readBillSnapshot, type BillRead } from "./read-snapshot";

export const billPageQuery = z.strictObject({
  agent: z.uuid().optional(),
  task: z.uuid().optional(),
  /** The next page: runs (or tasks) first seen before this event id. */
  before: z.coerce.number().int().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});
export type BillPageQuery = z.infer<typeof billPageQuery>;
export const billTasksQuery = billPageQuery.pick({ before: true, limit: true });
/** An agent's runs: the agent is in the path. */
export const agentRunsQuery = billPageQuery.pick({ before: true, limit: true, task: true });

export interface RunBill extends LineView {
  runId: string;
  agentId: string | null;
  agentName: string | null;
  taskId: string | null;
  /** The task's number and title, for naming the run in words; null without a task (or one the hub no longer has). */
  taskNumber: number | null;
  taskTitle: string | null;
  /** When its RunStarted was journalled (ISO); null when the bill's events do not hold it (an archived start). */
  startedAt: string | null;
  status: RunStatus | "running";
  firstEventId: number;
  lastEventId: number;
}

export interface TaskBill extends LineView {
  taskId: string;
  number: number | null;
  title: string | null;
  firstEventId: number;
}

export type BillPage<T> = Page<T>;

function page<T extends { firstEventId: number }>(items: T[], limit: number): BillPage<T> {
  items.sort((a, b) => b.firstEventId - a.firstEventId);
  const shown = items.slice(0, limit);
  return items.length > limit ? { items: shown, next: shown[shown.length - 1].firstEventId } : { items: shown };
}

export async function runsPage(r: BillRead, prices: PriceMap, query: BillPageQuery): Promise<BillPage<RunBill>> {
  const limit = query.limit ?? 50;
  const filter = (extra?: SQL) =>
    and(
      query.before !== undefined ? lt(billRuns.firstEventId, query.before) : undefined,
      query.agent ? eq(billRuns.agentId, query.agent) : undefined,
      query.task ? eq(billRuns.taskId, query.task) : undefined,
      extra,
    );
  const rows = await r.tx
    .select()
    .from(billRuns)
    .where(filter())
    .orderBy(desc(billRuns.firstEventId))
    .limit(limit + 1);
  const tailIds = [...r.tail.runs.keys()].filter((id) => !rows.some((row) => row.runId === id));
  const earlier = tailIds.length ? await r.tx.select().from(billRuns).where(inArray(billRuns.runId, tailIds)) : [];
  const base: BillDelta = emptyDelta();
  for (const row of [...rows, ...earlier]) base.runs.set(row.runId, { ...row, status: row.status as RunStatus | null, startedAt: row.startedAt?.toISOString() ?? null });
  await loadLines(r.tx, base, "run", [...base.runs.keys()]);
  mergeBill(base, r.tail);
  const candidates = [...base.runs.values()].filter(
    (run) => (query.before === undefined || run.firstEventId < query.before) && (!query.agent || run.agentId === query.agent) && (!query.task || run.taskId === query.task),
  );
  const views = lineViews(base, "run", prices);
  const names = await namesOf(
    r.tx,
    candidates.map((c) => c.agentId ?? ""),
  );
  const tasksOf = await taskLabels(
    r,
    candidates.map((c) => c.taskId).filter((id) => id !== null),
  );
  return page(
    candidates.map((run) => ({
      ...(views.get(run.runId) ?? emptyView()),
      runId: run.runId,
      agentId: run.agentId,
      agentName: run.agentId ? (names.get(run.agentId) ?? null) : null,
      taskId: run.taskId,
      taskNumber: run.taskId ? (tasksOf.get(run.taskId)?.number ?? null) : null,
      taskTitle: run.taskId ? (tasksOf.get(run.taskId)?.title ?? null) : null,
      startedAt: run.startedAt,
      status: run.status ?? "running",
      firstEventId: run.firstEventId,
      lastEventId: run.lastEventId,
    })),
    limit,
  );
}

/** The tasks' numbers and titles by id: the words the Bill names a task (or a run on it) with. */
async function taskLabels(r: BillRead, ids: string[]): Promise<Map<string, { number: number; title: string }>> {
  const unique = [...new Set(ids)];
  const rows = unique.length ? await r.tx.select({ id: tasks.id, number: tasks.number, title: tasks.title }).from(tasks).where(inArray(tasks.id, unique)) : [];
  return new Map(rows.map((t) => [t.id, { number: t.number, title: t.title }]));
}

export async function tasksPage(r: BillRead, prices: PriceMap, query: Pick<BillPageQuery, "before" | "limit">): Promise<BillPage<TaskBill>> {
  const limit = query.limit ?? 50;
  const first = sql<number>`min(${billLines.firstEventId})`.mapWith(Number);
  const keys = await r.tx
    .select({ key: billLines.key, first })
    .from(billLines)
    .where(eq(billLines.scope, "task"))
    .groupBy(billLines.key)
    .having(query.before !== undefined ? sql`min(${billLines.firstEventId}) < ${query.before}` : undefined)
    .orderBy(desc(first))
    .limit(limit + 1);
  const tailKeys = [...r.tail.lines.values()].filter((l) => l.scope === "task").map((l) => l.key);
  const base = emptyDelta();
  await loadLines(r.tx, base, "task", [...new Set([...keys.map((k) => k.key), ...tailKeys])]);
  mergeBill(base, r.tail);
  const firstOf = new Map<string, number>();
  for (const line of base.lines.values()) {
    if (line.scope === "task") firstOf.set(line.key, Math.min(firstOf.get(line.key) ?? Infinity, line.firstEventId));
  }
  const candidates = [...firstOf].filter(([, at]) => query.before === undefined || at < query.before);
  const views = lineViews(base, "task", prices);
  const byId = await taskLabels(
    r,
    candidates.map(([id]) => id),
  );
  return page(
    candidates.map(([taskId, firstEventId]) => ({
      ...(views.get(taskId) ?? emptyView()),
      taskId,
      number: byId.get(taskId)?.number ?? null,
      title: byId.get(taskId)?.title ?? null,
      firstEventId,
    })),
    limit,
  );
}

/** GET /api/bill/runs (and an agent's runs): a page of runs, newest first. */
export function listBillRuns(db: Db, prices: PriceMap, query: BillPageQuery): Promise<BillPage<RunBill>> {
  return readBillSnapshot(db, (r) => runsPage(r, prices, query));
}

/** GET /api/bill/tasks: a page of tasks by when they first spent, newest first. */
export function listBillTasks(db: Db, prices: PriceMap, query: z.infer<typeof billTasksQuery>): Promise<BillPage<TaskBill>> {
  return readBillSnapshot(db, (r) => tasksPage(r, prices, query));
}

// Exports a run's or a task's events as JSON Lines, read a page at a time (by id), so an export of any
// size streams in constant memory. A task's export holds its own events and every event of its runs,
// as the viewer may read them (./visibility.ts).
import { and, asc, eq, gt, type SQL } from "drizzle-orm";
import { z } from "zod";
import { events } from "../../db/schema";
import type { Executor } from "../../db/client";
import { fail } from "../errors";
import type { Principal } from "../principal";
import { runIdSchema, taskScope } from "./load";
import { eventsVisibleTo } from "./visibility";

export const exportQuery = z.union([z.strictObject({ run: runIdSchema }), z.strictObject({ task: z.uuid() })]);
export type ExportQuery = z.infer<typeof exportQuery>;

const PAGE = 500;

async function scopeOf(db: Executor, query: ExportQuery): Promise<SQL> {
  return "run" in query ? eq(events.runId, query.run) : taskScope(db, query.task);
}

/** The file name a browser saves the export as. */
export function exportFileName(query: ExportQuery): string {
  return "run" in query ? `${query.run}.jsonl` : `task-${query.task}.jsonl`;
}

/** Opens an export: 404 when the run or task has no events `viewer` may read; then yields one JSON line per event, in journal order. */
export async function openExport(db: Executor, query: ExportQuery, viewer: Principal): Promise<AsyncGenerator<string>> {
  const scope = and(await scopeOf(db, query), eventsVisibleTo(viewer));
  const [first] = await db.select({ id: events.id }).from(events).where(scope).orderBy(asc(events.id)).limit(1);
  if (!first) throw fail.notFound("journal", "run" in query ? `no run ${query.run} in the journal` : `no events for task ${query.task}`);
  return (async function* lines() {
    let after = 0;
    for (;;) {
      const rows = await db
        .select()
        .from(events)
        .where(and(scope, gt(events.id, after)))
        .orderBy(asc(events.id))
        .limit(PAGE);
      for (const e of rows) {
        yield `${JSON.stringify({ id: e.id, v: e.v, t: e.t.toISOString(), kind: e.kind, actor: e.actor, runId: e.runId, taskId: e.taskId, turn: e.turn, data: e.data })}\n`;
      }
      if (rows.length < PAGE) return;
      after = rows[rows.length - 1].id;
    }
  })();
}

// The archived months of the journal, as every view that reaches back says where its history stops
// (GET /api/journal/archives): the Journal, a run's timeline and a task's audit draw "Events before … are
// archived" where what they show meets one of these ranges.
import { asc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { journalArchivedRuns, journalArchivedTasks, journalArchives } from "../../db/schema";
import type { Executor } from "../../db/client";
import type { Principal } from "../principal";

export interface JournalArchiveView {
  /** `YYYY-MM-01` (UTC). */
  month: string;
  /** The month's bounds (ISO, UTC): its events' `t` are at or after `from` and before `to`. */
  from: string;
  to: string;
  events: number;
  archivedAt: string;
  /** The file on the hub's machine, for `quorum journal restore` (humans only; null for agents). */
  file: string | null;
  sha256: string;
}

/** GET /api/journal/archives's query: every archived month, or those holding one run's or one task's events. */
export const journalArchivesQuery = z.strictObject({
  run: z.string().min(1).max(128).optional(),
  task: z.uuid().optional(),
});
export type JournalArchivesQuery = z.infer<typeof journalArchivesQuery>;

export async function listJournalArchives(db: Executor, viewer: Principal, query: JournalArchivesQuery = {}): Promise<{ items: JournalArchiveView[] }> {
  const holding = query.run
    ? db.select({ month: journalArchivedRuns.month }).from(journalArchivedRuns).where(eq(journalArchivedRuns.runId, query.run))
    : query.task
      ? db.select({ month: journalArchivedTasks.month }).from(journalArchivedTasks).where(eq(journalArchivedTasks.taskId, query.task))
      : undefined;
  const rows = await db
    .select()
    .from(journalArchives)
    .where(holding ? inArray(journalArchives.month, holding) : undefined)
    .orderBy(asc(journalArchives.month));
  return {
    items: rows.map((r) => ({
      month: r.month,
      from: r.startsAt.toISOString(),
      to: r.endsAt.toISOString(),
      events: r.events,
      archivedAt: r.archivedAt.toISOString(),
      file: viewer.kind === "human" ? r.file : null,
      sha256: r.sha256,
    })),
  };
}

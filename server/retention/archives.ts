// The archived months of the journal, as every view that reaches back says where its history stops
// (GET /api/journal/archives): the Journal, a run's timeline and a task's audit draw "Events before … are
// archived" where what they show meets one of these ranges.
import { asc } from "drizzle-orm";
import { journalArchives } from "../../db/schema";
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

export async function listJournalArchives(db: Executor, viewer: Principal): Promise<{ items: JournalArchiveView[] }> {
  const rows = await db.select().from(journalArchives).orderBy(asc(journalArchives.month));
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

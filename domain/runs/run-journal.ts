// A run as the explorer reads it: its timeline and its events for a replay (its diagnosis is
// ../diagnosis/scope.ts's). Unknown runs are 404s, never empty answers. Each read is the
// viewer's: events about direct messages it is not party to are left out (../journal/visibility.ts).
import { and, count, eq } from "drizzle-orm";
import { events, journalArchivedRuns } from "../../db/schema";
import type { Executor } from "../../db/client";
import { fail } from "../errors";
import type { Principal } from "../principal";
import { loadRunEvents, type JournalRecord } from "../journal/load";
import { timeline, type Timeline } from "./timeline";

async function runEventsOrFail(db: Executor, runId: string, viewer: Principal): Promise<JournalRecord[]> {
  const recorded = await loadRunEvents(db, runId, viewer);
  if (recorded.length > 0) return recorded;
  // A run archived whole is named as such (DESIGN §4), with the month that holds it.
  const [archived] = await db.select({ month: journalArchivedRuns.month }).from(journalArchivedRuns).where(eq(journalArchivedRuns.runId, runId)).limit(1);
  if (archived) throw fail.notFound("run", `run ${runId}'s events are archived with ${archived.month.slice(0, 7)} (quorum journal restore brings them back)`);
  throw fail.notFound("run", `no run ${runId} in the journal`);
}

export async function loadRunTimeline(db: Executor, runId: string, viewer: Principal): Promise<Timeline> {
  return timeline(await runEventsOrFail(db, runId, viewer), runId);
}

/**
 * A run's events for a replay: it must have begun (RunStarted) for the loop to re-live it, and the
 * viewer must see all of it — a replay of the part it may read would re-live another run.
 */
export async function loadReplayableRun(db: Executor, runId: string, viewer: Principal): Promise<JournalRecord[]> {
  const recorded = await runEventsOrFail(db, runId, viewer);
  const [all] = await db.select({ n: count() }).from(events).where(eq(events.runId, runId));
  if (all.n !== recorded.length) {
    throw fail.forbidden("run", `run ${runId} read direct messages you are not party to: only their two ends and humans may replay it`);
  }
  if (!recorded.some((e) => e.kind === "RunStarted")) {
    throw fail.conflict("run", "not_replayable", `run ${runId} has events but no RunStarted: there is nothing to re-live`);
  }
  return recorded;
}

/** Whether a run has ended for good (a halted or stopped run may still resume). */
export async function runFinished(db: Executor, runId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.runId, runId), eq(events.kind, "AgentFinished")))
    .limit(1);
  return row !== undefined;
}

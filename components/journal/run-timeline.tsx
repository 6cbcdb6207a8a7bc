"use client";
// A run's timeline: every turn — model call, response, tokens, tool calls with their results — live while it runs.
import { useQuery } from "@tanstack/react-query";
import { apiGet } from "../api";
import { ArchivedLine, useJournalArchives } from "./archived-line";
import { queryKeys } from "../query-keys";
import type { JournalParams } from "./journal-params";
import { RunHeader } from "./run-header";
import { TurnCard } from "./turn-card";
import type { Timeline } from "./types";

/** Every view that reads it says a failure in place (RunTimelineState), where an archived run is named as such. */
export function useRunTimeline(runId: string) {
  return useQuery({
    queryKey: queryKeys.runTimeline(runId),
    queryFn: () => apiGet<Timeline>(`/api/journal/runs/${encodeURIComponent(runId)}`),
    meta: { answersInPlace: true },
  });
}

/** What a view of the run shows until its timeline is there: a skeleton while it loads, or why it could not (its events may be archived). */
export function RunTimelineState({ run, runId }: { run: ReturnType<typeof useRunTimeline>; runId: string }) {
  const archived = useJournalArchives({ run: runId }).data?.items ?? [];
  if (run.isError && archived.length > 0)
    return (
      <div className="px-6 py-4">
        <ArchivedLine archives={archived} place="run" />
      </div>
    );
  if (run.isError)
    return (
      <p className="p-6 text-sm text-red-600">
        Could not load run {runId}: {run.error.message}
      </p>
    );
  return <div className="m-6 h-40 animate-pulse rounded bg-neutral-100 dark:bg-neutral-900" aria-busy />;
}

export function RunTimeline({ runId, update }: { runId: string; update: (patch: Partial<JournalParams>) => void }) {
  const run = useRunTimeline(runId);
  if (!run.isSuccess) return <RunTimelineState run={run} runId={runId} />;
  return (
    <div className="space-y-3 px-6 py-4" data-testid="timeline">
      <RunHeader run={run.data} update={update} />
      {run.data.turns.length === 0 && <p className="text-sm text-neutral-500">The run has started and not called its model yet.</p>}
      <ol className="space-y-3" aria-live="polite">
        {run.data.turns.map((t) => (
          <li key={t.calledEventId}>
            <TurnCard turn={t} />
          </li>
        ))}
      </ol>
    </div>
  );
}

"use client";
// Replay: step through a run's recorded turns (responses and observations, as the loop saw them), re-live it
// from the journal on the server to show whether a fresh replay comes out identical, and fork it from a turn
// (./run-fork.tsx) to see what another answer from there would have done.
import { useQuery } from "@tanstack/react-query";
import { useState, type KeyboardEvent } from "react";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";
import { JsonBlock } from "./json-block";
import type { JournalParams } from "./journal-params";
import { useMe } from "../session";
import { RunFork } from "./run-fork";
import { RunHeader } from "./run-header";
import { RunTimelineState, useRunTimeline } from "./run-timeline";
import { TurnCard } from "./turn-card";
import type { ReplayReport } from "./types";

const button = "rounded border border-neutral-300 px-2.5 py-1 text-xs hover:bg-neutral-100 disabled:opacity-40 dark:border-neutral-700 dark:hover:bg-neutral-800";

function Verdict({ runId, finished }: { runId: string; finished: boolean }) {
  const replay = useQuery({
    queryKey: queryKeys.replay(runId),
    queryFn: () => apiGet<ReplayReport>(`/api/journal/runs/${encodeURIComponent(runId)}/replay`),
    staleTime: Infinity,
  });
  return (
    <section aria-live="polite" className="space-y-2 rounded-lg border border-neutral-200 p-3 dark:border-neutral-800" data-testid="replay-verdict">
      <div className="flex items-center gap-3">
        <h3 className="text-sm font-semibold">Fresh replay</h3>
        <button type="button" className={button} onClick={() => replay.refetch()} disabled={replay.isFetching}>
          {replay.isFetching ? "Replaying…" : "Replay again"}
        </button>
      </div>
      {replay.isPending && <div className="h-5 w-64 animate-pulse rounded bg-neutral-100 dark:bg-neutral-900" aria-busy />}
      {replay.isError && <p className="text-sm text-red-600">The replay could not run: {replay.error.message}</p>}
      {replay.data && (
        <>
          <p
            className={`text-sm font-medium ${replay.data.identical ? "text-green-700 dark:text-green-400" : "text-red-700 dark:text-red-400"}`}
            data-identical={replay.data.identical}
          >
            {replay.data.identical ? "✓ Identical" : "✗ Diverged"} — replayed {replay.data.replayed} events against {replay.data.recorded} recorded
            {replay.data.identical && " (every event but ids and timestamps)"}.
          </p>
          {!finished && replay.data.ended === "recording_ended" && (
            <p className="text-xs text-neutral-500">The run has not finished: the replay compares up to where its recording ends.</p>
          )}
          {replay.data.divergence && (
            <div className="space-y-1">
              <p className="text-sm">The streams part at event {replay.data.divergence.index + 1}:</p>
              <JsonBlock value={replay.data.divergence.expected ?? "(nothing)"} label="recorded" open />
              <JsonBlock value={replay.data.divergence.actual ?? "(nothing)"} label="replayed" open />
            </div>
          )}
        </>
      )}
    </section>
  );
}

export function RunReplay({ runId, update }: { runId: string; update: (patch: Partial<JournalParams>) => void }) {
  const run = useRunTimeline(runId);
  const me = useMe();
  const [step, setStep] = useState(0);
  const [forkFrom, setForkFrom] = useState<number | null>(null);
  if (!run.isSuccess) return <RunTimelineState run={run} runId={runId} />;
  const turns = run.data.turns;
  const at = Math.min(step, Math.max(turns.length - 1, 0));
  const keys = (e: KeyboardEvent) => {
    if (e.key === "ArrowRight") setStep(Math.min(at + 1, turns.length - 1));
    if (e.key === "ArrowLeft") setStep(Math.max(at - 1, 0));
  };
  return (
    <div className="space-y-3 px-6 py-4" data-testid="replay">
      <RunHeader run={run.data} update={update} />
      <Verdict runId={runId} finished={run.data.status !== "running"} />
      {turns.length === 0 ? (
        <p className="text-sm text-neutral-500">No turn to step through yet.</p>
      ) : (
        <section aria-label="Step through the run" onKeyDown={keys} className="space-y-2">
          <div className="flex flex-wrap items-center gap-2">
            <button type="button" className={button} onClick={() => setStep(0)} disabled={at === 0}>
              « First
            </button>
            <button type="button" className={button} onClick={() => setStep(at - 1)} disabled={at === 0}>
              ← Previous
            </button>
            <span className="text-sm tabular-nums" aria-live="polite" data-testid="replay-step">
              Turn {at + 1} of {turns.length}
            </span>
            <button type="button" className={button} onClick={() => setStep(at + 1)} disabled={at >= turns.length - 1}>
              Next →
            </button>
            <button type="button" className={button} onClick={() => setStep(turns.length - 1)} disabled={at >= turns.length - 1}>
              Last »
            </button>
            <span className="text-xs text-neutral-500">(← → keys)</span>
          </div>
          <TurnCard turn={turns[at]} expanded />
          {me.data?.kind === "human" && forkFrom === null && (
            <button type="button" className={button} onClick={() => setForkFrom(turns[at].turn)} data-testid="fork-from-here">
              Fork from here (turn {turns[at].turn})…
            </button>
          )}
        </section>
      )}
      {forkFrom !== null && <RunFork key={forkFrom} run={run.data} turn={forkFrom} onClose={() => setForkFrom(null)} />}
    </div>
  );
}

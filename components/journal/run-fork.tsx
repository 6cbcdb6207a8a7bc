"use client";
// "Fork from turn N": the turns before it are re-lived from the journal, and from it the run carries on with a
// script the human edits (prefilled with what the recorded model said from there) or with the live model, on a
// scratch copy of the run's files. The server streams its progress; the result is both journals side by side.
// Nothing is written to the journal or to any repository, so nothing else on the page changes.
import { useRef, useState } from "react";
import { ApiError, apiPostLines } from "../api";
import { ForkComparison } from "./fork-comparison";
import type { ForkReport, ForkScript, Timeline, TimelineTurn } from "./types";

const button = "rounded border border-neutral-300 px-2.5 py-1 text-xs hover:bg-neutral-100 disabled:opacity-40 dark:border-neutral-700 dark:hover:bg-neutral-800";

/** The last event of a turn: a fork from the next turn keeps everything up to it. */
function lastEventOf(turn: TimelineTurn): number {
  const ids = [turn.calledEventId, turn.respondedEventId ?? 0, turn.debit?.eventId ?? 0];
  for (const call of turn.calls) for (const attempt of call.attempts) ids.push(attempt.startedEventId ?? 0, attempt.returnedEventId ?? 0);
  return Math.max(...ids);
}

/** The event a fork from `turn` (1-based) keeps through: the end of the turn before it, or the run's start. */
export function forkPointOf(run: Timeline, turn: number): number | null {
  return turn <= 1 ? run.startedEventId : lastEventOf(run.turns[turn - 2]);
}

/** What the recorded model answered from `turn` on, as a script to edit. */
function recordedScript(run: Timeline, turn: number): ForkScript {
  return run.turns
    .slice(turn - 1)
    .flatMap((t) =>
      t.response ? [{ ...(t.response.text ? { text: t.response.text } : {}), toolCalls: t.response.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments })) }] : [],
    );
}

type Phase =
  | { at: "editing" }
  | { at: "running"; progress: string[] }
  | { at: "done"; progress: string[]; report: ForkReport }
  | { at: "failed"; progress: string[]; message: string };

export function RunFork({ run, turn, onClose }: { run: Timeline; turn: number; onClose: () => void }) {
  const [mode, setMode] = useState<"script" | "live">("script");
  const [script, setScript] = useState(() => JSON.stringify(recordedScript(run, turn), null, 2));
  const [phase, setPhase] = useState<Phase>({ at: "editing" });
  const cancel = useRef<AbortController | null>(null);
  const until = forkPointOf(run, turn);

  const start = async () => {
    let parsed: unknown;
    if (mode === "script") {
      try {
        parsed = JSON.parse(script);
      } catch (error) {
        setPhase({ at: "failed", progress: [], message: `The script is not JSON: ${(error as Error).message}` });
        return;
      }
    }
    const progress: string[] = [];
    setPhase({ at: "running", progress });
    const controller = new AbortController();
    cancel.current = controller;
    let report: ForkReport | null = null;
    let stopped: string | null = null;
    try {
      await apiPostLines(
        `/api/journal/runs/${encodeURIComponent(run.runId)}/fork`,
        mode === "script" ? { until, script: parsed } : { until, live: true },
        (line) => {
          const l = line as { progress?: string; report?: ForkReport; error?: { message: string } };
          if (l.progress) {
            progress.push(l.progress);
            setPhase({ at: "running", progress: [...progress] });
          }
          if (l.report) report = l.report;
          if (l.error) stopped = l.error.message;
        },
        controller.signal,
      );
      if (report) setPhase({ at: "done", progress, report });
      else setPhase({ at: "failed", progress, message: stopped ?? "The fork ended without a report." });
    } catch (error) {
      const message = controller.signal.aborted ? "Cancelled." : error instanceof ApiError ? error.message : `The fork could not run: ${(error as Error).message}`;
      setPhase({ at: "failed", progress, message });
    } finally {
      cancel.current = null;
    }
  };

  return (
    <section className="space-y-3 rounded-lg border border-accent-300 p-3 dark:border-accent-800" aria-labelledby="fork-title" data-testid="fork-panel">
      <div className="flex flex-wrap items-center gap-2">
        <h3 id="fork-title" className="text-sm font-semibold">
          Fork from turn {turn}
        </h3>
        <button type="button" className={`${button} ml-auto`} onClick={onClose} disabled={phase.at === "running"}>
          Close
        </button>
      </div>
      <p className="text-xs text-neutral-600 dark:text-neutral-300">
        {turn > 2
          ? `Turns 1–${turn - 1} are re-lived from the journal; from turn ${turn}`
          : turn === 2
            ? "Turn 1 is re-lived from the journal; from turn 2"
            : "From the first turn"}{" "}
        the run carries on with what you give it, on a scratch copy of its files, with its real tools (the tests run sandboxed). Nothing is written to the journal or to any
        repository.
      </p>
      {phase.at === "editing" && (
        <fieldset className="space-y-2">
          <legend className="sr-only">What carries the run on</legend>
          <div className="flex flex-wrap gap-4 text-sm">
            <label className="flex items-center gap-1.5">
              <input type="radio" name="fork-mode" checked={mode === "script"} onChange={() => setMode("script")} /> A script
            </label>
            <label className="flex items-center gap-1.5">
              <input type="radio" name="fork-mode" checked={mode === "live"} onChange={() => setMode("live")} /> The live model
            </label>
          </div>
          {mode === "script" && (
            <label className="block text-xs">
              <span className="text-neutral-700 dark:text-neutral-200">
                Script: one response per model call, in order (<code className="font-mono">text</code>, <code className="font-mono">toolCalls</code> of{" "}
                <code className="font-mono">name</code> and <code className="font-mono">arguments</code>). It starts as what the recorded model said from turn {turn}.
              </span>
              <textarea
                className="mt-1 block h-48 w-full rounded border border-neutral-300 bg-white p-2 font-mono text-xs dark:border-neutral-700 dark:bg-neutral-950"
                value={script}
                onChange={(e) => setScript(e.target.value)}
                spellCheck={false}
                data-testid="fork-script"
              />
            </label>
          )}
          <button type="button" className={button} onClick={start} disabled={until === null}>
            Fork
          </button>
        </fieldset>
      )}
      {phase.at !== "editing" && (
        <div className="space-y-1">
          <div className="flex items-center gap-2">
            <h4 className="text-xs font-semibold">{phase.at === "running" ? "Forking…" : "What the fork did"}</h4>
            {phase.at === "running" && (
              <button type="button" className={button} onClick={() => cancel.current?.abort()}>
                Cancel
              </button>
            )}
          </div>
          <ol
            className="space-y-0.5 font-mono text-xs break-words text-neutral-700 dark:text-neutral-300"
            aria-live="polite"
            aria-label="The fork's progress"
            data-testid="fork-progress"
          >
            {phase.progress.map((line, i) => (
              // Lines only ever append: their place is their identity.
              // biome-ignore lint/suspicious/noArrayIndexKey: an append-only log
              <li key={i}>{line}</li>
            ))}
          </ol>
        </div>
      )}
      {phase.at === "failed" && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {phase.message}
        </p>
      )}
      {(phase.at === "done" || phase.at === "failed") && (
        <button type="button" className={button} onClick={() => setPhase({ at: "editing" })}>
          Change the script and fork again
        </button>
      )}
      {phase.at === "done" && <ForkComparison report={phase.report} />}
    </section>
  );
}

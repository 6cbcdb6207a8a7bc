"use client";
// A run's header: who ran it, on which task, how it ended, what it spent, its export, and a human's Stop.
import { RunStatus } from "../bill/run-status";
import { formatTokens } from "../bill/format";
import { withContentKeys } from "../content-keys";
import { useMe } from "../session";
import { JsonBlock } from "./json-block";
import { ResumeRun } from "./resume-run";
import { StopRun } from "./stop-run";
import type { JournalParams } from "./journal-params";
import type { Timeline } from "./types";
import { RelativeTime } from "../time";

export function RunHeader({ run, update }: { run: Timeline; update: (patch: Partial<JournalParams>) => void }) {
  const r = run.result;
  const me = useMe();
  const canStop = me.data?.kind === "human" && run.status === "running";
  // A pause is a human's to end: the team's worker carries the run on once asked (a halted one after a top-up).
  const lastResume = run.resumeRequests.at(-1);
  const resumeAsked = lastResume !== undefined && (run.endedEventId === null || lastResume.eventId > run.endedEventId);
  const canResume = me.data?.kind === "human" && (run.status === "halted" || run.status === "stopped") && !resumeAsked;
  return (
    <header className="space-y-2">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h2 className="font-mono text-base font-semibold">{run.runId}</h2>
        <RunStatus status={run.status} />
        <span className="text-sm text-neutral-600 dark:text-neutral-300">
          by {run.agentName ?? "unknown"} · {run.turns.length} turn{run.turns.length === 1 ? "" : "s"} · {formatTokens(run.tokens.total)} tokens · {run.events} events
        </span>
        {run.taskId && (
          <button type="button" className="text-xs text-accent-600 hover:underline dark:text-accent-500" onClick={() => update({ task: run.taskId!, view: "thread" })}>
            its task&apos;s thread
          </button>
        )}
        <a href={`/api/journal/export?run=${encodeURIComponent(run.runId)}`} download className="ml-auto text-xs text-accent-600 hover:underline dark:text-accent-500">
          Export JSONL
        </a>
        {canStop && <StopRun runId={run.runId} />}
        {canResume && <ResumeRun runId={run.runId} />}
      </div>
      {r && (
        <p className="text-sm" data-testid="run-result">
          Ended <strong>{r.status.replace(/_/g, " ")}</strong>
          {r.status === "done" && r.summary && <>: {r.summary}</>}
          {(r.status === "inconclusive" || r.status === "stopped") && r.reason && <>: {r.reason}</>}
          {r.status === "halted" && ` — budget spent ${formatTokens(r.budgetSpent)} of ${formatTokens(r.allowance)}`}
          {r.status === "done" && r.evidence.length > 0 && <span className="text-neutral-500"> ({r.evidence.length} piece(s) of evidence)</span>}
        </p>
      )}
      {run.config?.traceId && (
        <p className="text-xs text-neutral-600 dark:text-neutral-300" data-testid="run-trace">
          Traced as{" "}
          <span className="select-all break-all font-mono" title="This run's OpenTelemetry trace: search for it in your tracing backend (Jaeger, Tempo, Phoenix, Langfuse)">
            {run.config.traceId}
          </span>
        </p>
      )}
      {r?.status === "done" && withContentKeys(r.evidence, (e) => e).map(({ key, item }, i) => <JsonBlock key={key} value={item} label={`Evidence ${i + 1}`} />)}
      {run.stopRequests.map((s) => (
        <p key={s.eventId} className="text-xs text-neutral-600 dark:text-neutral-300">
          ■ {s.byName ?? "An operator"} asked it to stop <RelativeTime iso={s.t} className="" />: {s.reason}
        </p>
      ))}
      {run.resumeRequests.map((s) => (
        <p key={s.eventId} className="text-xs text-neutral-600 dark:text-neutral-300" data-testid="resume-request">
          ▶ {s.byName ?? "A human"} asked to resume it <RelativeTime iso={s.t} className="" />: {s.reason}
          {resumeAsked && s === lastResume && " — the team's worker carries it on from its journal."}
        </p>
      ))}
      {run.config && (
        <JsonBlock
          value={{
            task: run.config.task,
            system: run.config.system,
            principles: run.config.principles,
            tools: run.config.tools.map((t) => t.name),
            maxTurns: run.config.maxTurns,
            model: run.config.model,
          }}
          label="Configuration (task, system prompt, principles, tools)"
        />
      )}
    </header>
  );
}

"use client";
// A fork's result: where the two journals part, then both side by side from the fork point (each row the
// recorded step and the fork's), the steps that differ marked, the first divergence highlighted, and how
// each side ended.
import { formatTokens } from "../bill/format";
import type { ForkReport, ForkStep, RunResult } from "./types";

function ended(result: RunResult | null): string {
  if (!result) return "did not finish";
  if (result.status === "done") return `done: “${result.summary}”`;
  if (result.status === "inconclusive" || result.status === "stopped") return `${result.status}: ${result.reason}`;
  return result.status.replace(/_/g, " ");
}

function Step({ step, side }: { step: ForkStep | undefined; side: string }) {
  if (!step) return <p className="text-xs text-neutral-500">{side}: nothing here (that side had ended)</p>;
  return (
    <p className="min-w-0 text-xs break-words">
      <span className="text-neutral-500 md:sr-only dark:text-neutral-400">{side}: </span>
      <span className="font-mono font-medium">{step.kind}</span> {step.what}
    </p>
  );
}

/** One side of a pair shown side by side: its label and what it holds. */
function Side({ label, tone, children, testId }: { label: string; tone: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className={`min-w-0 rounded p-2 ${tone}`}>
      <dt className="text-xs text-neutral-500 dark:text-neutral-400">{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

const differs = (a: ForkStep | undefined, b: ForkStep | undefined) => !a || !b || a.kind !== b.kind || a.what !== b.what;

export function ForkComparison({ report }: { report: ForkReport }) {
  const rows = Math.max(report.original.length, report.fork.length);
  const at = report.divergence?.index ?? null;
  return (
    <section className="space-y-3" data-testid="fork-result" aria-label="The fork against the recording">
      <div data-testid="fork-divergence" data-diverged={at !== null} className="space-y-2">
        <p className="text-sm font-medium">
          {at === null
            ? "The fork wrote exactly what was recorded."
            : `The journals part at event ${at + 1}${report.divergence?.original?.turn ? ` (turn ${report.divergence.original.turn})` : ""}:`}
        </p>
        {report.divergence && (
          <dl className="grid gap-2 md:grid-cols-2">
            <Side label="the recording" tone="bg-neutral-50 dark:bg-neutral-900">
              <Step step={report.divergence.original ?? undefined} side="recorded" />
            </Side>
            <Side label="the fork" tone="bg-amber-50 dark:bg-amber-950/40">
              <Step step={report.divergence.fork ?? undefined} side="fork" />
            </Side>
          </dl>
        )}
      </div>
      <dl className="grid gap-2 text-sm md:grid-cols-2">
        <Side label="Recorded, from the fork point" tone="border border-neutral-200 dark:border-neutral-800" testId="fork-original-result">
          {ended(report.originalResult)} · {formatTokens(report.tokens.original)} tokens
        </Side>
        <Side label={`The fork, with ${report.continuedWith}`} tone="border border-accent-300 dark:border-accent-800" testId="fork-fork-result">
          {ended(report.forkResult)} · {formatTokens(report.tokens.fork)} tokens
        </Side>
      </dl>
      <p className="text-xs text-neutral-600 dark:text-neutral-300">
        Kept {report.until.index + 1} recorded events (through turn {report.until.turn}), re-lived from the journal {report.prefixIdentical ? "identically" : "with differences"}.
        The fork worked on {report.workspace}.
      </p>
      <ol className="space-y-1" aria-label="Both journals from the fork point">
        <li className="hidden grid-cols-[6.5rem_minmax(0,1fr)_minmax(0,1fr)] gap-2 px-2 text-xs font-medium text-neutral-600 md:grid dark:text-neutral-300" aria-hidden>
          <span>event</span>
          <span>recorded</span>
          <span>fork</span>
        </li>
        {Array.from({ length: rows }, (_, i) => {
          const a = report.original[i];
          const b = report.fork[i];
          const index = (a ?? b).index;
          const first = index === at;
          const different = differs(a, b);
          return (
            <li
              key={index}
              data-testid="fork-row"
              data-differs={different}
              data-first={first || undefined}
              className={`grid grid-cols-1 gap-1 rounded px-2 py-1 md:grid-cols-[6.5rem_minmax(0,1fr)_minmax(0,1fr)] md:gap-2 ${
                first ? "bg-amber-100 ring-2 ring-amber-500 dark:bg-amber-950/60" : different ? "bg-amber-50 dark:bg-amber-950/30" : ""
              }`}
            >
              <span className="text-xs tabular-nums text-neutral-600 dark:text-neutral-300">
                {index + 1}
                {different && <span title="differs"> ≠</span>}
                {first && <span className="ml-1 font-semibold">first divergence</span>}
              </span>
              <Step step={a} side="recorded" />
              <Step step={b} side="fork" />
            </li>
          );
        })}
      </ol>
    </section>
  );
}

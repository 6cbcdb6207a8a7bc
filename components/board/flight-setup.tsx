"use client";
// A flight's setup (its dependencies installed once before anyone works): a line on its card while it runs
// and after, and a panel on its goal's page with the command, where it came from and, when it failed, the end
// of its log. Both move live: each setup event invalidates the flights (components/live-invalidation.ts).
import type { FlightView } from "./use-flights";

type Setup = NonNullable<FlightView["setup"]>;

const SOURCE: Record<string, string> = { given: "given at launch", file: "the repository's .quorum/setup", detected: "detected from its lockfiles" };

function seconds(ms: number | null): string {
  return `${Math.max(0, Math.round((ms ?? 0) / 1000))} s`;
}

/** The setup in a few words: what the card shows beside the branch. */
export function setupWords(setup: Setup): string {
  switch (setup.status) {
    case "pending":
      return `setup waits: ${setup.command}`;
    case "running":
      return `setting up (${seconds(setup.elapsedMs)}): ${setup.line ?? setup.command}`;
    case "done":
      return setup.reused ? `set up: reused (${setup.command})` : `set up in ${seconds(setup.elapsedMs)} (${setup.command})`;
    case "failed":
      return `setup failed: ${setup.line ?? setup.command}`;
  }
}

/** The card's line about the setup; nothing for a flight that needs none. */
export function SetupLine({ setup }: { setup: FlightView["setup"] }) {
  if (!setup) return null;
  const tone =
    setup.status === "failed" ? "text-red-800 dark:text-red-200" : setup.status === "running" ? "text-amber-900 dark:text-amber-100" : "text-neutral-600 dark:text-neutral-300";
  return (
    <span className={`mt-1 flex min-w-0 items-baseline gap-1.5 ${tone}`} data-testid="flight-setup" data-setup={setup.status}>
      {setup.status === "running" && <span aria-hidden className="inline-block size-2 shrink-0 animate-pulse rounded-full bg-amber-500" />}
      <span className="min-w-0 flex-1 truncate font-mono text-[11px]" title={setupWords(setup)}>
        {setupWords(setup)}
      </span>
    </span>
  );
}

/** The goal page's panel: the command and its origin, how it went, and a failed setup's log. */
export function SetupPanel({ setup }: { setup: Setup }) {
  return (
    <section aria-label="Setup" data-testid="setup-panel" className="mb-3 rounded-lg border border-neutral-200 p-3 text-sm dark:border-neutral-800">
      <p>
        <strong className="font-semibold">Setup</strong> <code className="font-mono text-xs break-all">{setup.command}</code>{" "}
        <span className="text-xs text-neutral-600 dark:text-neutral-300">({SOURCE[setup.source] ?? setup.source})</span>
      </p>
      <p className={`mt-1 text-xs ${setup.status === "failed" ? "text-red-800 dark:text-red-200" : "text-neutral-700 dark:text-neutral-200"}`} data-testid="setup-state">
        {setup.status === "pending" && "Waits for the orchestrator: it runs before the plan, once per set of lockfiles."}
        {setup.status === "running" && `Running for ${seconds(setup.elapsedMs)}${setup.line ? `: ${setup.line}` : "…"}`}
        {setup.status === "done" &&
          (setup.reused
            ? "Done: an earlier flight on the same dependencies built this environment, and every worktree shares it."
            : `Done in ${seconds(setup.elapsedMs)}; every worktree of the flight shares what it installed.`)}
        {setup.status === "failed" && `Failed: ${setup.line ?? "see its log"}. The goal is back with you: retry it from "waiting for you" once the cause is fixed.`}
      </p>
      {setup.log && (
        <>
          <h3 className="mt-2 text-xs font-semibold text-neutral-700 dark:text-neutral-200">The end of its log</h3>
          <pre
            data-testid="setup-log"
            className="mt-2 max-h-72 overflow-auto rounded bg-neutral-100 px-2 py-1 font-mono text-[11px] whitespace-pre-wrap break-all dark:bg-neutral-900"
          >
            {setup.log}
          </pre>
        </>
      )}
    </section>
  );
}

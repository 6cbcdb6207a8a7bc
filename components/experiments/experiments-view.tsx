"use client";
// The Lab's Experiments page (reached from Settings): every table `quorum experiment NAME` saved on this hub, the
// newest of each experiment first with when it ran, its parameters and the command that runs it again; earlier
// runs folded below it. Experiments run on a scratch database of their own, never this hub's, so nothing here
// changes while you watch: a new table appears when the page is loaded again.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { apiGet } from "../api";
import { CopyButton } from "../copy-button";
import { queryKeys } from "../query-keys";
import { RelativeTime } from "../time";
import { ExperimentTable } from "./experiment-table";
import type { SavedExperiment, SavedExperiments } from "./types";

function Command({ text }: { text: string }) {
  return (
    <div className="flex items-start gap-2">
      <pre className="min-w-0 flex-1 rounded bg-neutral-100 px-2 py-1 font-mono text-xs break-all whitespace-pre-wrap dark:bg-neutral-900" data-testid="experiment-command">
        {text}
      </pre>
      <CopyButton text={text} />
    </div>
  );
}

function duration(seconds: number): string {
  return seconds < 90 ? `${seconds.toFixed(seconds < 10 ? 1 : 0)} s` : `${Math.round(seconds / 60)} min`;
}

function Result({ result }: { result: SavedExperiment }) {
  const parameters = Object.entries(result.parameters);
  return (
    <article className="space-y-3" data-testid="experiment" data-experiment={result.experiment} aria-label={`${result.title}, ${result.ranAt}`}>
      <div>
        <h3 className="text-sm font-semibold">{result.title}</h3>
        <p className="mt-0.5 text-xs text-neutral-600 dark:text-neutral-300">
          Ran <RelativeTime iso={result.ranAt} className="" /> in {duration(result.seconds)}
          {parameters.length === 0 && " · no parameters"}
        </p>
        {parameters.length > 0 && (
          <ul className="mt-1 flex flex-wrap gap-1" aria-label="Parameters">
            {parameters.map(([name, value]) => (
              <li key={name} className="rounded bg-neutral-100 px-1.5 py-0.5 font-mono text-xs dark:bg-neutral-800" data-testid="experiment-parameter">
                {name} {value}
              </li>
            ))}
          </ul>
        )}
      </div>
      <p className="text-sm">{result.question}</p>
      <ExperimentTable result={result} />
      <div className="space-y-1">
        <p className="text-xs text-neutral-600 dark:text-neutral-300">Run it again, from Quorum&apos;s folder:</p>
        <Command text={result.command} />
      </div>
      {result.notes.length > 0 && (
        <details className="text-sm">
          <summary className="cursor-pointer text-xs font-medium text-neutral-700 dark:text-neutral-200">How to read this table</summary>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-xs text-neutral-700 dark:text-neutral-300">
            {result.notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </details>
      )}
    </article>
  );
}

export function ExperimentsView() {
  const saved = useQuery({ queryKey: queryKeys.experiments(), queryFn: () => apiGet<SavedExperiments>("/api/experiments") });
  const byExperiment = new Map<string, SavedExperiment[]>();
  for (const result of saved.data?.items ?? []) byExperiment.set(result.experiment, [...(byExperiment.get(result.experiment) ?? []), result]);
  return (
    <div className="h-full overflow-y-auto px-4 py-4 md:px-6">
      <div className="mx-auto max-w-5xl space-y-6">
        <header className="space-y-1">
          <nav aria-label="Breadcrumb" className="text-xs text-neutral-600 dark:text-neutral-300">
            <Link href="/settings" className="text-accent-600 hover:underline dark:text-accent-500">
              Settings
            </Link>{" "}
            › Lab
          </nav>
          <h1 className="text-lg font-semibold">Experiments</h1>
          <p className="text-sm text-neutral-600 dark:text-neutral-300">
            What the seeds&apos; experiments measured when they were run on this hub. Each runs on a scratch database of its own, never this hub&apos;s, and saves its table in this
            hub&apos;s folder (<code className="font-mono text-xs">$QUORUM_HOME/experiments</code>). Run one from Quorum&apos;s folder with{" "}
            <code className="font-mono text-xs">npm run quorum -- experiment NAME</code>.
          </p>
        </header>
        {saved.isPending && (
          <div className="space-y-3" aria-busy>
            <div className="h-40 animate-pulse rounded-lg bg-neutral-100 dark:bg-neutral-900" />
            <div className="h-40 animate-pulse rounded-lg bg-neutral-100 dark:bg-neutral-900" />
          </div>
        )}
        {saved.data && saved.data.items.length === 0 && (
          <p
            className="rounded-lg border border-dashed border-neutral-300 p-4 text-sm text-neutral-600 dark:border-neutral-700 dark:text-neutral-300"
            data-testid="experiments-empty"
          >
            No experiment has run on this hub yet. Run one from Quorum&apos;s folder, for example <code className="font-mono text-xs">npm run quorum -- experiment reflection</code>
            , and its table appears here when you load the page again.
          </p>
        )}
        {saved.data?.experiments.map((experiment) => {
          const results = byExperiment.get(experiment.name) ?? [];
          const [latest, ...earlier] = results;
          return (
            <section key={experiment.name} aria-labelledby={`experiment-${experiment.name}`} className="space-y-3 rounded-lg border border-neutral-200 p-4 dark:border-neutral-800">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h2 id={`experiment-${experiment.name}`} className="font-mono text-sm font-semibold">
                  {experiment.name}
                </h2>
                <span className="text-xs text-neutral-600 dark:text-neutral-300">
                  {results.length === 0 ? "not run yet" : `${results.length} saved run${results.length === 1 ? "" : "s"}`}
                </span>
              </div>
              <p className="text-xs text-neutral-600 dark:text-neutral-300">{experiment.summary}</p>
              {latest ? <Result result={latest} /> : <Command text={`npm run quorum -- experiment ${experiment.name}${experiment.flags ? ` ${experiment.flags}` : ""}`} />}
              {earlier.length > 0 && (
                <details>
                  <summary className="cursor-pointer text-xs font-medium text-neutral-700 dark:text-neutral-200">
                    {earlier.length} earlier run{earlier.length === 1 ? "" : "s"}
                  </summary>
                  <div className="mt-3 space-y-6 border-l-2 border-neutral-200 pl-3 dark:border-neutral-800">
                    {earlier.map((result) => (
                      <Result key={result.file} result={result} />
                    ))}
                  </div>
                </details>
              )}
            </section>
          );
        })}
        {saved.data && saved.data.unreadable.length > 0 && (
          <p className="text-xs text-neutral-600 dark:text-neutral-300">
            {saved.data.unreadable.length} file{saved.data.unreadable.length === 1 ? "" : "s"} in the results folder {saved.data.unreadable.length === 1 ? "is" : "are"} not an
            experiment&apos;s table and {saved.data.unreadable.length === 1 ? "was" : "were"} left out: {saved.data.unreadable.join(", ")}.
          </p>
        )}
      </div>
    </div>
  );
}

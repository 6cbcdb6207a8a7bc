"use client";
// The explorer's filters: kind, actor, task, run and a full-text search, each one click to clear, and whether
// the plumbing (deliveries, model calls, leases renewed…) shows at all.
import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";
import { usePrincipals } from "../use-principals";
import type { Task } from "../board/types";
import type { Page } from "../types";
import type { JournalParams, KindChoice } from "./journal-params";
import { KindPicker } from "./kind-picker";

const field = "rounded border border-neutral-300 bg-white px-2 py-1 text-xs dark:border-neutral-700 dark:bg-neutral-900";

/** What the task picker uses of a task. */
type TaskOption = Pick<Task, "id" | "number" | "title">;

export function JournalFilters({ params, kinds, update }: { params: JournalParams; kinds: readonly KindChoice[]; update: (patch: Partial<JournalParams>) => void }) {
  const people = usePrincipals().data?.items ?? [];
  const tasks = useQuery({ queryKey: queryKeys.taskOptions(), queryFn: () => apiGet<Page<TaskOption>>("/api/tasks?limit=100") });
  const [q, setQ] = useState(params.q);
  const [run, setRun] = useState(params.run);
  const search = (e: FormEvent) => {
    e.preventDefault();
    update({ q: q.trim(), run: run.trim(), at: null });
  };
  const taskOptions = tasks.data?.items ?? [];
  const any = params.kind || params.actor || params.task || params.run || params.q;
  return (
    <search aria-label="Filter the journal">
      <form onSubmit={search} className="flex flex-wrap items-center gap-x-3 gap-y-2 border-b border-neutral-200 px-3 py-2 md:px-6 dark:border-neutral-800">
        <h1 className="text-sm font-semibold">Journal</h1>
        <KindPicker kinds={kinds} value={params.kind} onChange={(kind) => update({ kind, at: null })} />
        <label className="flex items-center gap-1.5 text-xs">
          Actor
          <select value={params.actor} onChange={(e) => update({ actor: e.target.value, at: null })} className={field}>
            <option value="">anyone</option>
            {people.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-1.5 text-xs">
          Task
          <select value={params.task} onChange={(e) => update({ task: e.target.value, at: null })} className={`${field} max-w-56`}>
            <option value="">any</option>
            {params.task && !taskOptions.some((t) => t.id === params.task) && <option value={params.task}>task {params.task.slice(0, 8)}</option>}
            {taskOptions.map((t) => (
              <option key={t.id} value={t.id}>
                #{t.number} {t.title}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-1.5 text-xs">
          Run
          <input value={run} onChange={(e) => setRun(e.target.value)} placeholder="run_…" className={`${field} w-40 font-mono`} />
        </label>
        <label className="flex items-center gap-1.5 text-xs">
          <span className="sr-only">Search</span>
          <input
            type="search"
            value={q}
            onChange={(e) => setQ(e.target.value)}
            placeholder='Search: words, "a phrase", -not'
            title="Searches the events that carry text. Delivery receipts, cursors, focus windows, claims and leases: pick their kind instead."
            className={`${field} w-56`}
            data-testid="journal-search"
          />
        </label>
        <button type="submit" className="rounded bg-accent-600 px-2.5 py-1 text-xs font-medium text-white hover:bg-accent-700">
          Search
        </button>
        <label className="flex items-center gap-1.5 text-xs" title="Message deliveries, model calls and tool steps, leases renewed, focus windows and digests">
          <input type="checkbox" checked={params.system} onChange={(e) => update({ system: e.target.checked, at: null })} data-testid="system-toggle" />
          Show system events
        </label>
        {any && (
          <button
            type="button"
            className="text-xs text-neutral-600 hover:underline dark:text-neutral-300"
            onClick={() => {
              setQ("");
              setRun("");
              update({ kind: "", actor: "", task: "", run: "", q: "", view: "events", at: null });
            }}
          >
            Clear filters
          </button>
        )}
      </form>
    </search>
  );
}

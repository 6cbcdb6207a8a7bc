"use client";
// The dense event list, newest first, a cursor page at a time; each row expands to its JSON and links
// to its task's thread and its run's timeline.
import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";
import type { JournalEntry, Page } from "../types";
import { summary } from "./event-summary";
import { listQuery, type JournalParams } from "./journal-params";

const chip = "rounded bg-neutral-100 px-1.5 py-0.5 font-mono text-[11px] text-accent-700 hover:bg-accent-50 dark:bg-neutral-900 dark:text-accent-500";

function Row({ entry, focused, update }: { entry: JournalEntry; focused: boolean; update: (patch: Partial<JournalParams>) => void }) {
  const [open, setOpen] = useState(focused);
  return (
    <li
      data-testid="journal-row"
      data-kind={entry.kind}
      id={`event-${entry.id}`}
      className={`border-b border-neutral-100 dark:border-neutral-900 ${focused ? "bg-accent-50 dark:bg-neutral-900" : ""}`}
    >
      <div className="grid grid-cols-[5rem_10rem_10rem_8rem_1fr_auto] items-baseline gap-3 px-6 py-1.5 text-sm hover:bg-neutral-50 dark:hover:bg-neutral-900">
        <button
          type="button"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
          className="text-left font-mono text-xs text-neutral-500 tabular-nums"
          aria-label={`event ${entry.id}: show its JSON`}
        >
          {open ? "▾" : "▸"} #{entry.id}
        </button>
        <time dateTime={entry.t} className="text-xs text-neutral-500 tabular-nums" title={entry.t}>
          {new Date(entry.t).toLocaleString()}
        </time>
        <button type="button" onClick={() => update({ kind: entry.kind, at: null })} className="truncate text-left font-medium hover:underline" title={`only ${entry.kind}`}>
          {entry.kind}
        </button>
        <span className="truncate text-neutral-600 dark:text-neutral-300">{entry.actorName ?? "system"}</span>
        <span className="truncate text-neutral-600 dark:text-neutral-400">{summary(entry)}</span>
        <span className="flex gap-1">
          {entry.taskId && (
            <button type="button" className={chip} onClick={() => update({ task: entry.taskId!, view: "thread", at: null })} title="the task's thread">
              task
            </button>
          )}
          {entry.runId && (
            <button type="button" className={chip} onClick={() => update({ run: entry.runId!, view: "timeline", at: null })} title={`run ${entry.runId}`}>
              run
            </button>
          )}
        </span>
      </div>
      {open && (
        <pre className="mx-6 mb-2 overflow-x-auto rounded bg-neutral-100 p-3 font-mono text-xs whitespace-pre-wrap dark:bg-neutral-900">{JSON.stringify(entry, null, 2)}</pre>
      )}
    </li>
  );
}

export function EventList({ params, update }: { params: JournalParams; update: (patch: Partial<JournalParams>) => void }) {
  const filter = listQuery(params);
  const first = params.at ? params.at + 1 : 0;
  const query = useInfiniteQuery({
    queryKey: queryKeys.journalList(filter.toString(), params.at),
    queryFn: ({ pageParam }) => apiGet<Page<JournalEntry>>(`/api/journal?${filter}${pageParam ? `&before=${pageParam}` : ""}`),
    initialPageParam: first,
    getNextPageParam: (last) => last.next,
  });
  const entries = query.data?.pages.flatMap((p) => p.items) ?? [];
  const filtered = filter.size > 1;
  return (
    <div>
      {params.at && (
        <p className="flex items-center gap-3 border-b border-neutral-200 px-6 py-1.5 text-xs text-neutral-600 dark:border-neutral-800 dark:text-neutral-300">
          Showing events from #{params.at} back.
          <button type="button" className="text-accent-600 hover:underline dark:text-accent-500" onClick={() => update({ at: null })}>
            Jump to the newest
          </button>
        </p>
      )}
      {query.isPending && (
        <div className="space-y-2 p-6" aria-busy>
          {[0, 1, 2, 3, 4].map((i) => (
            <div key={i} className="h-5 animate-pulse rounded bg-neutral-100 dark:bg-neutral-900" />
          ))}
        </div>
      )}
      {query.isError && <p className="p-6 text-sm text-red-600">Could not load the journal: {query.error.message}</p>}
      {query.isSuccess && entries.length === 0 && (
        <p className="p-6 text-sm text-neutral-500">
          {filtered ? "No events match these filters. Clear them to see everything." : "No events yet. Every message, sign-in and agent step appears here as it happens."}
        </p>
      )}
      <ul aria-live="polite" aria-label="Journal events">
        {entries.map((entry) => (
          <Row key={entry.id} entry={entry} focused={entry.id === params.at} update={update} />
        ))}
      </ul>
      {query.hasNextPage && (
        <button
          type="button"
          className="m-4 rounded border border-neutral-300 px-3 py-1 text-xs hover:bg-neutral-100 dark:border-neutral-700 dark:hover:bg-neutral-900"
          onClick={() => query.fetchNextPage()}
          disabled={query.isFetchingNextPage}
        >
          {query.isFetchingNextPage ? "Loading…" : "Older events"}
        </button>
      )}
    </div>
  );
}

"use client";
// The dense event list, newest first, a cursor page at a time; each row expands to its JSON and links
// to its task's thread and its run's timeline.
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { Fragment, useState } from "react";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";
import type { JournalEntry, Page } from "../types";
import type { Task } from "../board/types";
import { usePrincipals } from "../use-principals";
import { ArchivedLine, useJournalArchives } from "./archived-line";
import { archivedBetween } from "./archived-words";
import { kindWords, lineOf, type Names } from "./event-line";
import { listQuery, type JournalParams } from "./journal-params";
import { RelativeTime } from "../time";

/** What the names use of a task. */
type TaskOption = Pick<Task, "id" | "number" | "title">;

const chip = "rounded bg-neutral-100 px-1.5 py-0.5 font-mono text-[11px] text-accent-700 hover:bg-accent-50 dark:bg-neutral-900 dark:text-accent-500";

/** Names for the lines: the people and tasks this page already knows (ids stay in the JSON). */
function useNames(): Names {
  const people = usePrincipals().data?.items ?? [];
  const tasks = useQuery({ queryKey: queryKeys.taskOptions(), queryFn: () => apiGet<Page<TaskOption>>("/api/tasks?limit=100") });
  const byId = new Map(people.map((p) => [p.id, p.name]));
  const numbers = new Map((tasks.data?.items ?? []).map((t) => [t.id, t.number]));
  return {
    who: (id) => (id ? (byId.get(id) ?? "someone") : "nobody"),
    task: (id) => {
      const number = id ? numbers.get(id) : undefined;
      return number !== undefined ? `#${number}` : "a task";
    },
  };
}

const dayFormat = new Intl.DateTimeFormat(undefined, { weekday: "long", day: "numeric", month: "long", year: "numeric" });

function dayOf(iso: string): string {
  return dayFormat.format(new Date(iso));
}

function Row({ entry, focused, update, names }: { entry: JournalEntry; focused: boolean; update: (patch: Partial<JournalParams>) => void; names: Names }) {
  const [open, setOpen] = useState(focused);
  const line = lineOf(entry, names);
  return (
    <li
      data-testid="journal-row"
      data-kind={entry.kind}
      id={`event-${entry.id}`}
      className={`border-b border-neutral-100 dark:border-neutral-900 ${focused ? "bg-accent-50 dark:bg-neutral-900" : ""}`}
    >
      <div className="grid grid-cols-[4.5rem_4.5rem_1fr] items-baseline gap-x-3 px-3 py-1.5 text-sm hover:bg-neutral-50 md:grid-cols-[5rem_4.5rem_11rem_1fr_auto] md:px-6 dark:hover:bg-neutral-900">
        <button
          type="button"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
          className="text-left font-mono text-xs text-neutral-600 tabular-nums dark:text-neutral-300"
          aria-label={`event ${entry.id}: show its JSON`}
        >
          {open ? "▾" : "▸"} #{entry.id}
        </button>
        <RelativeTime iso={entry.t} className="text-xs text-neutral-600 tabular-nums dark:text-neutral-300" />
        <button
          type="button"
          onClick={() => update({ kind: entry.kind, at: null })}
          className="truncate text-left text-xs font-medium text-neutral-700 hover:underline max-md:col-start-3 max-md:row-start-1 dark:text-neutral-200"
          title={`only ${entry.kind}`}
        >
          {kindWords(entry.kind)}
        </button>
        <span className="min-w-0 truncate max-md:col-span-3" data-testid="journal-line" title={line}>
          {line}
        </span>
        <span className="flex gap-1 max-md:col-span-3">
          {entry.taskId && (
            <button type="button" className={chip} onClick={() => update({ task: entry.taskId!, view: "thread", at: null })} title="the task's thread">
              {names.task(entry.taskId) === "a task" ? "task" : names.task(entry.taskId)}
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
        <pre className="mx-3 mb-2 overflow-x-auto rounded bg-neutral-100 p-3 font-mono text-xs whitespace-pre-wrap md:mx-6 dark:bg-neutral-900">
          {JSON.stringify(entry, null, 2)}
        </pre>
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
  const names = useNames();
  const archives = useJournalArchives().data?.items ?? [];
  // Where the list has nothing older to load, the months archived before its oldest event end it.
  const archivedAtEnd = query.isSuccess && !query.hasNextPage ? archivedBetween(archives, entries.at(-1)?.t ?? null, null) : [];
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
        <p className="p-6 text-sm text-neutral-600 dark:text-neutral-300">
          {filtered ? "No events match these filters. Clear them to see everything." : "No events yet. Every message, sign-in and agent step appears here as it happens."}
        </p>
      )}
      <ul aria-live="polite" aria-label="Journal events">
        {entries.map((entry, i) => {
          const day = dayOf(entry.t);
          const header = i === 0 || dayOf(entries[i - 1].t) !== day;
          const archivedGap = i === 0 ? [] : archivedBetween(archives, entries[i - 1].t, entry.t);
          return (
            <Fragment key={entry.id}>
              <ArchivedLine archives={archivedGap} place="gap" as="li" />
              {header && (
                <li
                  className="sticky top-0 z-10 border-b border-neutral-200 bg-white/95 px-3 py-1 text-xs font-semibold text-neutral-700 md:px-6 dark:border-neutral-800 dark:bg-neutral-950/95 dark:text-neutral-200"
                  data-testid="journal-day"
                >
                  {day}
                </li>
              )}
              <Row entry={entry} focused={entry.id === params.at} update={update} names={names} />
            </Fragment>
          );
        })}
        <ArchivedLine archives={archivedAtEnd} place="end" as="li" />
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

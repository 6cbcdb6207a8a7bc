"use client";
// The Journal page: every event, newest first, filterable by kind and actor, each row expandable.
import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { apiGet } from "../api";
import { usePrincipals } from "../shell";
import type { JournalEntry, Page } from "../types";

const KINDS = [
  "MessageSent", "GateRejected", "PrincipalCreated", "HumanSignedIn", "RoomCreated", "CursorAdvanced",
  "RunStarted", "ModelResponded", "ToolReturned", "BudgetDebited", "AgentFinished",
];

function summary(entry: JournalEntry): string {
  const data = (entry.data ?? {}) as Record<string, unknown>;
  if (entry.kind === "MessageSent") return `#${data.room} seq ${data.seq}: ${String(data.body ?? "").slice(0, 120)}`;
  if (entry.kind === "PrincipalCreated") return `${data.kind} ${data.name}${data.role ? ` (${data.role})` : ""}`;
  if (entry.kind === "RoomCreated") return `#${data.room}`;
  if (entry.kind === "GateRejected") return `${data.gate ?? data.reason}: ${data.message ?? ""}`;
  return JSON.stringify(data).slice(0, 140);
}

function Row({ entry }: { entry: JournalEntry }) {
  const [open, setOpen] = useState(false);
  return (
    <li data-testid="journal-row" data-kind={entry.kind} className="border-b border-neutral-100 dark:border-neutral-900">
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="grid w-full grid-cols-[5rem_11rem_10rem_8rem_1fr] items-baseline gap-3 px-6 py-1.5 text-left text-sm hover:bg-neutral-50 dark:hover:bg-neutral-900"
      >
        <span className="font-mono text-xs text-neutral-500 tabular-nums">#{entry.id}</span>
        <time dateTime={entry.t} className="text-xs text-neutral-500 tabular-nums" title={entry.t}>
          {new Date(entry.t).toLocaleString()}
        </time>
        <span className="font-medium">{entry.kind}</span>
        <span className="truncate text-neutral-600 dark:text-neutral-300">{entry.actorName ?? "system"}</span>
        <span className="truncate text-neutral-600 dark:text-neutral-400">{summary(entry)}</span>
      </button>
      {open && (
        <pre className="mx-6 mb-2 overflow-x-auto rounded bg-neutral-100 p-3 font-mono text-xs dark:bg-neutral-900">
          {JSON.stringify(entry, null, 2)}
        </pre>
      )}
    </li>
  );
}

export function JournalView() {
  const [kind, setKind] = useState("");
  const [actor, setActor] = useState("");
  const people = usePrincipals().data?.items ?? [];
  const filter = new URLSearchParams({ limit: "100", ...(kind && { kind }), ...(actor && { actor }) });
  const query = useInfiniteQuery({
    queryKey: ["journal", kind, actor],
    queryFn: ({ pageParam }) => apiGet<Page<JournalEntry>>(`/api/journal?${filter}${pageParam ? `&before=${pageParam}` : ""}`),
    initialPageParam: 0,
    getNextPageParam: (last) => last.next,
  });
  const entries = query.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <div className="flex h-full flex-col">
      <div className="flex items-center gap-4 border-b border-neutral-200 px-6 py-2 dark:border-neutral-800">
        <h1 className="text-sm font-semibold">Journal</h1>
        <label className="flex items-center gap-2 text-xs">
          Kind
          <select value={kind} onChange={(e) => setKind(e.target.value)} className="rounded border border-neutral-300 bg-white px-2 py-1 dark:border-neutral-700 dark:bg-neutral-900">
            <option value="">all</option>
            {KINDS.map((k) => (
              <option key={k}>{k}</option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-2 text-xs">
          Actor
          <select value={actor} onChange={(e) => setActor(e.target.value)} className="rounded border border-neutral-300 bg-white px-2 py-1 dark:border-neutral-700 dark:bg-neutral-900">
            <option value="">anyone</option>
            {people.map((p) => (
              <option key={p.id} value={p.id}>{p.name}</option>
            ))}
          </select>
        </label>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {query.isPending && <div className="m-6 h-24 animate-pulse rounded bg-neutral-100 dark:bg-neutral-900" aria-busy />}
        {query.isError && <p className="p-6 text-sm text-red-600">Could not load the journal: {query.error.message}</p>}
        {query.isSuccess && entries.length === 0 && (
          <p className="p-6 text-sm text-neutral-500">No events match. Every message, sign-in and agent step appears here as it happens.</p>
        )}
        <ul aria-live="polite" aria-label="Journal events">
          {entries.map((entry) => (
            <Row key={entry.id} entry={entry} />
          ))}
        </ul>
        {query.hasNextPage && (
          <button
            className="m-4 rounded border border-neutral-300 px-3 py-1 text-xs hover:bg-neutral-100 dark:border-neutral-700 dark:hover:bg-neutral-900"
            onClick={() => query.fetchNextPage()}
            disabled={query.isFetchingNextPage}
          >
            {query.isFetchingNextPage ? "Loading…" : "Older events"}
          </button>
        )}
      </div>
    </div>
  );
}

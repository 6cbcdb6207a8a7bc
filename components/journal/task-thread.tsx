"use client";
// A task's thread read like minutes: who said what to whom, each transition, each run's start and end.
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { apiGet } from "../api";
import { ArchivedLine, useJournalArchives } from "./archived-line";
import { queryKeys } from "../query-keys";
import { PerformativeBadge } from "../badges";
import { EventLink } from "./json-block";
import type { JournalParams } from "./journal-params";
import type { TaskHeader, TaskThread as Thread, ThreadEntry } from "./types";
import { RelativeTime } from "../time";

const TRANSITIONS: Record<string, (d: Record<string, unknown>, who: string) => string> = {
  TaskCreated: (d, who) => `${who} created the task${d.title ? ` “${d.title}”` : ""}.`,
  TaskClaimed: (d, who) => `${who} claimed it (fence ${d.fence}).`,
  TaskOffered: (_d, who) => `${who} offered it to the best-placed agent.`,
  LeaseExpired: () => "The lease expired; the task went back to ready.",
  TaskSubmitted: (d, who) => `${who} submitted it for review: ${d.summary ?? ""}`,
  TaskReviewed: (d, who) => `${who} ${d.verdict === "accept" ? "accepted" : "rejected"} it${d.reason ? `: ${d.reason}` : "."}`,
  TaskReopened: (_d, who) => `${who} reopened it with new evidence.`,
  TaskCancelled: (_d, who) => `${who} cancelled it with an ADR.`,
};

function Line({ entry, update }: { entry: ThreadEntry; update: (patch: Partial<JournalParams>) => void }) {
  const who = entry.actorName ?? "quorum";
  let body: ReactNode;
  if (entry.type === "message") {
    body = (
      <>
        <strong>{who}</strong>
        {entry.to && <span className="text-neutral-500"> → direct</span>} {entry.performative && <PerformativeBadge performative={entry.performative} />}{" "}
        <span className="whitespace-pre-wrap">{entry.body}</span>
        <span className="ml-2 text-xs text-neutral-500">#{entry.room}</span>
      </>
    );
  } else if (entry.type === "transition") {
    body = (
      <span className="text-neutral-700 dark:text-neutral-300">
        {(TRANSITIONS[entry.kind] ?? ((_d, w) => `${w}: ${entry.kind}`))((entry.data ?? {}) as Record<string, unknown>, who)}
      </span>
    );
  } else {
    body = (
      <span className="text-neutral-700 dark:text-neutral-300">
        {entry.kind === "RunStarted" ? `${who} started a run` : `${who}'s run ended: ${entry.status}${entry.summary ? ` — ${entry.summary}` : ""}`}
        {entry.runId && (
          <button type="button" className="ml-2 text-xs text-accent-600 hover:underline dark:text-accent-500" onClick={() => update({ run: entry.runId!, view: "timeline" })}>
            timeline
          </button>
        )}
      </span>
    );
  }
  return (
    <li className="grid grid-cols-[5.5rem_1fr_auto] gap-3 py-1.5 text-sm" data-testid="thread-entry" data-type={entry.type}>
      <RelativeTime iso={entry.t} className="text-xs text-neutral-500 tabular-nums" />
      <span>{body}</span>
      <EventLink id={entry.eventId} />
    </li>
  );
}

export function TaskTitle({ task }: { task: TaskHeader }) {
  return (
    <div className="flex flex-wrap items-baseline gap-x-3">
      <h2 className="text-base font-semibold">
        #{task.number} {task.title}
      </h2>
      <span className="text-xs text-neutral-500">
        {task.status.replace("_", " ")} · owner {task.ownerName ?? "none"} · approver {task.approverName ?? "?"}
      </span>
      <a href={`/api/journal/export?task=${task.id}`} download className="ml-auto text-xs text-accent-600 hover:underline dark:text-accent-500">
        Export JSONL
      </a>
    </div>
  );
}

export function TaskThread({ taskId, update }: { taskId: string; update: (patch: Partial<JournalParams>) => void }) {
  const thread = useQuery({ queryKey: queryKeys.taskThread(taskId), queryFn: () => apiGet<Thread>(`/api/journal/tasks/${taskId}/thread`) });
  const archived = useJournalArchives({ task: taskId }).data?.items ?? [];
  if (thread.isPending) return <div className="m-6 h-32 animate-pulse rounded bg-neutral-100 dark:bg-neutral-900" aria-busy />;
  if (thread.isError) return <p className="p-6 text-sm text-red-600">Could not load the thread: {thread.error.message}</p>;
  return (
    <div className="space-y-3 px-6 py-4">
      <TaskTitle task={thread.data.task} />
      <ArchivedLine archives={archived} place="task" />
      {thread.data.items.length === 0 && archived.length === 0 && (
        <p className="text-sm text-neutral-500">Nothing on this thread yet: messages sent with this task, and its transitions, appear here.</p>
      )}
      <ol className="divide-y divide-neutral-100 dark:divide-neutral-900" aria-live="polite" data-testid="thread">
        {thread.data.items.map((e) => (
          <Line key={e.eventId} entry={e} update={update} />
        ))}
      </ol>
    </div>
  );
}

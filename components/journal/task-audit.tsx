"use client";
// A task's audit: every verdict with who gave it and the submission (and evidence) it judged, linked to the events.
import { useQuery } from "@tanstack/react-query";
import { apiGet } from "../api";
import { ArchivedLine, useJournalArchives } from "./archived-line";
import { withContentKeys } from "../content-keys";
import { queryKeys } from "../query-keys";
import { EventLink, JsonBlock } from "./json-block";
import type { JournalParams } from "./journal-params";
import { TaskTitle } from "./task-thread";
import type { Submission, TaskAudit as Audit } from "./types";
import { RelativeTime } from "../time";

function SubmissionLine({ s, update }: { s: Submission; update: (patch: Partial<JournalParams>) => void }) {
  return (
    <div className="space-y-1">
      <p className="text-sm">
        <strong>{s.byName ?? "someone"}</strong> submitted via {s.via === "board" ? "the board" : s.via === "run" ? "a run's done" : "a DONE message"} at{" "}
        <RelativeTime iso={s.t} className="" />: {s.summary} <EventLink id={s.eventId} />
        {s.via === "run" && (
          <button type="button" className="ml-2 text-xs text-accent-600 hover:underline dark:text-accent-500" onClick={() => update({ at: s.eventId, view: "events" })}>
            in the journal
          </button>
        )}
      </p>
      {s.evidence.length === 0 ? (
        <p className="text-xs text-amber-700 dark:text-amber-400">No evidence attached.</p>
      ) : (
        withContentKeys(s.evidence, (e) => e).map(({ key, item }, i) => <JsonBlock key={key} value={item} label={`Evidence ${i + 1}`} />)
      )}
    </div>
  );
}

export function TaskAudit({ taskId, update }: { taskId: string; update: (patch: Partial<JournalParams>) => void }) {
  const audit = useQuery({ queryKey: queryKeys.taskAudit(taskId), queryFn: () => apiGet<Audit>(`/api/journal/tasks/${taskId}/audit`) });
  const archived = useJournalArchives({ task: taskId }).data?.items ?? [];
  if (audit.isPending) return <div className="m-6 h-32 animate-pulse rounded bg-neutral-100 dark:bg-neutral-900" aria-busy />;
  if (audit.isError) return <p className="p-6 text-sm text-red-600">Could not load the audit: {audit.error.message}</p>;
  const a = audit.data;
  return (
    <div className="space-y-4 px-6 py-4" data-testid="audit">
      <TaskTitle task={a.task} />
      <ArchivedLine archives={archived} place="task" />
      <p className={`text-sm font-medium ${a.accepted ? "text-green-700 dark:text-green-400" : "text-neutral-600 dark:text-neutral-300"}`}>
        {a.accepted
          ? "✓ Accepted: the latest verdict accepts."
          : a.verdicts.length
            ? "✗ Not accepted: the latest verdict rejects."
            : archived.length
              ? "No verdict in the journal."
              : "No verdict yet."}
      </p>
      <section className="space-y-3" aria-label="Verdicts">
        <h3 className="text-sm font-semibold">Verdicts</h3>
        {a.verdicts.length === 0 && archived.length === 0 && (
          <p className="text-sm text-neutral-500">Nobody has reviewed this task yet; its approver is {a.task.approverName ?? "unknown"}.</p>
        )}
        {a.verdicts.map((v) => (
          <article key={v.eventId} className="space-y-2 rounded-lg border border-neutral-200 p-3 dark:border-neutral-800">
            <p className="text-sm">
              <span
                className={`mr-2 rounded px-1.5 py-0.5 text-xs font-semibold ${v.verdict === "accept" ? "bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-200" : "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200"}`}
              >
                {v.verdict === "accept" ? "ACCEPT" : "REJECT"}
              </span>
              <strong>{v.byName ?? "someone"}</strong> via {v.via === "review" ? "a board review" : "a message"} <RelativeTime iso={v.t} className="" />
              {v.reason && <span>: {v.reason}</span>} <EventLink id={v.eventId} />
            </p>
            <div className="border-l-2 border-neutral-200 pl-3 dark:border-neutral-800">
              {v.on ? (
                <SubmissionLine s={v.on} update={update} />
              ) : (
                <p className="text-xs text-amber-700 dark:text-amber-400">This verdict came before any submission: there was no evidence to judge.</p>
              )}
            </div>
          </article>
        ))}
      </section>
      <section className="space-y-3" aria-label="Submissions">
        <h3 className="text-sm font-semibold">All submissions</h3>
        {a.submissions.length === 0 && archived.length === 0 && <p className="text-sm text-neutral-500">Nothing submitted yet.</p>}
        {a.submissions.map((s) => (
          <SubmissionLine key={s.eventId} s={s} update={update} />
        ))}
      </section>
    </div>
  );
}

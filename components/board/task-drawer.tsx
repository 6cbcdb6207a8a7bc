"use client";
// The task drawer: criteria, evidence, output, review history, ADR and thread, with the actions the caller may take.
import { useEffect, useRef, useState, type ReactNode } from "react";
import Link from "next/link";
import { Avatar } from "../avatar";
import { PerformativeBadge } from "../badges";
import { RelativeTime } from "../time";
import type { Me } from "../types";
import { CancelDialog } from "./cancel-dialog";
import { DiffView } from "./diff-view";
import { EditTaskDialog } from "./edit-task-dialog";
import { FlightMerge } from "./flight-merge";
import { TaskDiagnosis } from "./task-diagnosis";
import { TaskTests } from "./task-tests";
import { LeaseCountdown } from "../lease-countdown";
import { ReopenDialog } from "./reopen-dialog";
import { ReviewDialog } from "./review-dialog";
import { StatusBadge } from "./status-badge";
import type { Task, TaskDetail } from "./types";
import { useTaskDetail } from "./use-board";
import { TaskReservations } from "../reservations/task-reservations";
import { useScrollRegion } from "../use-scroll-region";

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="border-t border-neutral-200 px-5 py-3 dark:border-neutral-800">
      <h3 className="mb-2 text-xs font-semibold tracking-wide text-neutral-500 uppercase dark:text-neutral-400">{title}</h3>
      {children}
    </section>
  );
}

function Mono({ text, open = false, label }: { text: string; open?: boolean; label: string }) {
  const scroller = useRef<HTMLElement>(null);
  // A long text scrolls: then it joins the tab order, so a keyboard can scroll it too.
  const tab = useScrollRegion(scroller);
  return (
    <details open={open} className="rounded border border-neutral-200 dark:border-neutral-800">
      <summary className="cursor-pointer px-2 py-1 text-xs text-neutral-600 dark:text-neutral-300">{label}</summary>
      <section
        ref={scroller}
        tabIndex={tab}
        aria-label={label}
        className="max-h-72 overflow-auto border-t border-neutral-200 bg-neutral-50 dark:border-neutral-800 dark:bg-neutral-950"
      >
        <pre className="p-2 font-mono text-xs whitespace-pre-wrap">{text}</pre>
      </section>
    </details>
  );
}

function Actions({ task, me, focusReview = false, refusal }: { task: Task; me: Me; focusReview?: boolean; refusal: string | null }) {
  const [dialog, setDialog] = useState<"review" | "reopen" | "cancel" | "edit" | null>(null);
  const reviewButton = useRef<HTMLButtonElement>(null);
  // Arriving from "waiting for you", the Review button takes the focus: Enter opens the verdict.
  useEffect(() => {
    if (focusReview) reviewButton.current?.focus();
  }, [focusReview]);
  const steward = me.kind === "human" || me.id === task.createdBy || me.id === task.approverId;
  const button = "rounded-md border px-2.5 py-1 text-xs font-medium";
  return (
    <div className="flex flex-wrap gap-2">
      {task.status === "review" && me.id === task.approverId && (
        <button type="button" ref={reviewButton} onClick={() => setDialog("review")} className={`${button} border-accent-600 bg-accent-600 text-white hover:bg-accent-700`}>
          Review
        </button>
      )}
      {task.status === "review" && me.id !== task.approverId && <span className="text-xs text-neutral-500 dark:text-neutral-400">Waiting for {task.approverName} to review.</span>}
      {task.status === "done" && steward && (
        <button type="button" onClick={() => setDialog("reopen")} className={`${button} border-neutral-300 hover:bg-neutral-100 dark:border-neutral-700 dark:hover:bg-neutral-800`}>
          Reopen with evidence
        </button>
      )}
      {task.status === "ready" && (me.kind === "human" || me.id === task.createdBy) && (
        <button type="button" onClick={() => setDialog("edit")} className={`${button} border-neutral-300 hover:bg-neutral-100 dark:border-neutral-700 dark:hover:bg-neutral-800`}>
          Edit
        </button>
      )}
      {["ready", "in_progress", "review"].includes(task.status) && steward && (
        <button
          type="button"
          onClick={() => setDialog("cancel")}
          className={`${button} border-red-300 text-red-800 hover:bg-red-50 dark:border-red-800 dark:text-red-200 dark:hover:bg-red-950`}
        >
          Cancel with ADR
        </button>
      )}
      <ReviewDialog task={task} refusal={refusal} asHuman={me.kind === "human"} open={dialog === "review"} onClose={() => setDialog(null)} />
      <ReopenDialog task={task} open={dialog === "reopen"} onClose={() => setDialog(null)} />
      <CancelDialog task={task} open={dialog === "cancel"} onClose={() => setDialog(null)} />
      {dialog === "edit" && <EditTaskDialog task={task} open onClose={() => setDialog(null)} />}
    </div>
  );
}

/** The task's whole story; on its own page (`/board/:number`) the changes stand beside it instead of in it. */
export function TaskBody({ detail, me, focusReview, withChanges = true }: { detail: TaskDetail; me: Me; focusReview: boolean; withChanges?: boolean }) {
  const { task } = detail;
  const latestEvidence = detail.evidence.at(-1)?.id;
  return (
    <>
      <header className="px-5 pt-4 pb-3">
        <div className="flex items-center gap-2 text-xs text-neutral-500 dark:text-neutral-400">
          <span className="font-mono">#{task.number}</span>
          <StatusBadge status={task.status} />
          {withChanges && (
            <Link href={`/board/${task.number}`} className="ml-auto text-accent-700 hover:underline dark:text-accent-500">
              Open as a page
            </Link>
          )}
        </div>
        <h2 className="mt-1 text-lg leading-snug font-semibold break-words">{task.title}</h2>
        <dl className="mt-2 grid grid-cols-[5.5rem_1fr] gap-y-1 text-sm">
          <dt className="text-neutral-500 dark:text-neutral-400">Owner</dt>
          <dd className="flex items-center gap-1.5">
            {task.ownerId && task.ownerName && task.ownerKind ? (
              <>
                <Avatar id={task.ownerId} name={task.ownerName} kind={task.ownerKind} size="sm" />
                {task.ownerName}
              </>
            ) : (
              <span className="text-neutral-500">nobody yet</span>
            )}
            {task.status === "in_progress" && task.leaseExpiresAt && <LeaseCountdown expiresAt={task.leaseExpiresAt} />}
          </dd>
          <dt className="text-neutral-500 dark:text-neutral-400">Approver</dt>
          <dd className="flex items-center gap-1.5">
            <Avatar id={task.approverId} name={task.approverName} kind={task.approverKind} size="sm" />
            {task.approverName}
          </dd>
          <dt className="text-neutral-500 dark:text-neutral-400">Created</dt>
          <dd className="flex items-center gap-1.5 text-xs">
            by {task.createdByName} <RelativeTime iso={task.createdAt} />
          </dd>
        </dl>
        <div className="mt-3">
          <Actions task={task} me={me} focusReview={focusReview} refusal={detail.tests.refusal} />
        </div>
      </header>
      {task.description && (
        <Section title="Description">
          <p className="text-sm whitespace-pre-wrap">{task.description}</p>
        </Section>
      )}
      <Section title="Acceptance criteria">
        {task.acceptanceCriteria ? (
          <p className="text-sm whitespace-pre-wrap" data-testid="acceptance-criteria">
            {task.acceptanceCriteria}
          </p>
        ) : (
          <p className="text-sm text-red-700 dark:text-red-300">None yet: nobody can start this task until its criteria are written.</p>
        )}
      </Section>
      <Section title="Tests">
        <TaskTests detail={detail} me={me} />
      </Section>
      {detail.adr && (
        <Section title="ADR — why it was cancelled">
          <div data-testid="adr" className="space-y-1.5 text-sm">
            <p className="font-semibold">{detail.adr.title}</p>
            {(["context", "decision", "consequences"] as const).map((key) => (
              <p key={key} className="whitespace-pre-wrap">
                <span className="font-medium capitalize">{key}: </span>
                {detail.adr![key]}
              </p>
            ))}
            <p className="text-xs text-neutral-500">
              by {detail.adr.authorName} <RelativeTime iso={detail.adr.createdAt} />
            </p>
          </div>
        </Section>
      )}
      {withChanges && task.status !== "ready" && (
        <Section title="Changes">
          <FlightMerge taskId={task.id} />
          <DiffView taskId={task.id} />
        </Section>
      )}
      {withChanges && (
        <div className="border-t border-neutral-200 px-5 py-3 empty:hidden dark:border-neutral-800">
          <TaskDiagnosis taskId={task.id} goalsOnly />
        </div>
      )}
      <Section title="Evidence">
        {detail.evidence.length === 0 && <p className="text-sm text-neutral-500">None yet: the owner submits a summary with evidence for review.</p>}
        <ul className="space-y-2" data-testid="evidence">
          {detail.evidence.map((e) => (
            <li key={e.id}>
              <p className="mb-1 text-xs text-neutral-600 dark:text-neutral-300">
                {e.kind === "submission" ? `Submitted by ${e.authorName}` : `Reopened by ${e.authorName}`} · <RelativeTime iso={e.createdAt} />
              </p>
              {e.summary && <p className="mb-1 text-sm">{e.summary}</p>}
              <Mono text={e.evidence} open={e.id === latestEvidence} label={e.kind === "submission" ? "evidence" : "new evidence"} />
            </li>
          ))}
        </ul>
      </Section>
      {detail.outputTail.length > 0 && (
        <Section title={`Output (${task.outputCount} items${task.outputCount > detail.outputTail.length ? `, latest ${detail.outputTail.length}` : ""})`}>
          <Mono label="items" text={detail.outputTail.map((o) => `${String(o.seq).padStart(4)}  f${o.fence}  ${JSON.stringify(o.item)}`).join("\n")} />
        </Section>
      )}
      <Section title="Review history">
        {detail.reviews.length === 0 && <p className="text-sm text-neutral-500">No verdicts yet.</p>}
        <ol className="space-y-2" data-testid="reviews">
          {detail.reviews.map((r) => (
            <li key={r.id} className="text-sm">
              <span
                className={`mr-2 rounded px-1.5 py-0.5 text-[11px] font-semibold ${r.verdict === "accept" ? "bg-green-100 text-green-900 dark:bg-green-900/60 dark:text-green-100" : "bg-red-100 text-red-900 dark:bg-red-900/60 dark:text-red-100"}`}
              >
                {r.verdict === "accept" ? "Approved" : "Changes requested"}
              </span>
              {r.reviewerName} <RelativeTime iso={r.createdAt} />
              {r.reason && <p className="mt-0.5 whitespace-pre-wrap text-neutral-700 dark:text-neutral-300">{r.reason}</p>}
            </li>
          ))}
        </ol>
      </Section>
      <TaskReservations taskId={task.id} />
      <Section title="Thread">
        {detail.thread.length === 0 && <p className="text-sm text-neutral-500">No messages about this task yet. Messages posted with its task id appear here.</p>}
        <ol className="space-y-2" aria-live="polite">
          {detail.thread.map((m) => (
            <li key={m.id} className="flex gap-2 text-sm">
              <Avatar id={m.senderId} name={m.senderName} kind={m.senderKind} size="sm" />
              <div className="min-w-0">
                <p className="flex flex-wrap items-center gap-1.5 text-xs">
                  <span className="font-semibold">{m.senderName}</span>
                  {m.performative && <PerformativeBadge performative={m.performative} />}
                  {m.toName && <span className="text-amber-800 dark:text-amber-300">to @{m.toName}</span>}
                  <span className="text-neutral-500">#{m.room}</span>
                  <RelativeTime iso={m.createdAt} />
                </p>
                <p className="break-words whitespace-pre-wrap">{m.body}</p>
              </div>
            </li>
          ))}
        </ol>
      </Section>
      <Section title="Details">
        <dl className="grid grid-cols-[8rem_1fr] gap-y-1 text-xs" data-testid="task-details">
          <dt className="text-neutral-600 dark:text-neutral-300">Times claimed</dt>
          <dd title="The fencing token: +1 on every claim; a stale owner's writes are refused">
            {task.fence} <span className="text-neutral-500 dark:text-neutral-400">(fencing token {task.fence})</span>
          </dd>
          <dt className="text-neutral-600 dark:text-neutral-300">Output</dt>
          <dd>{task.outputCount === 1 ? "1 item" : `${task.outputCount} items`}</dd>
        </dl>
      </Section>
    </>
  );
}

export function TaskDrawer({ id, me, onClose, focusReview = false }: { id: string; me: Me; onClose: () => void; focusReview?: boolean }) {
  const detail = useTaskDetail(id);
  return (
    <aside
      aria-label="Task details"
      data-testid="task-drawer"
      className="flex shrink-0 flex-col overflow-y-auto border-neutral-200 bg-white max-md:fixed max-md:inset-0 max-md:z-30 md:w-[28rem] md:border-l dark:border-neutral-800 dark:bg-neutral-900"
    >
      <div className="flex justify-end px-3 pt-2">
        <button
          type="button"
          onClick={onClose}
          aria-label="Close details"
          className="rounded px-2 py-0.5 text-lg leading-none text-neutral-500 hover:bg-neutral-100 dark:hover:bg-neutral-800"
        >
          ×
        </button>
      </div>
      {detail.isPending && (
        <div className="space-y-3 p-5" aria-busy>
          <div className="h-6 w-2/3 animate-pulse rounded bg-neutral-100 dark:bg-neutral-800" />
          <div className="h-24 animate-pulse rounded bg-neutral-100 dark:bg-neutral-800" />
        </div>
      )}
      {detail.isError && <p className="p-5 text-sm text-red-700 dark:text-red-300">Could not load this task: {detail.error.message}</p>}
      {detail.data && <TaskBody detail={detail.data} me={me} focusReview={focusReview} />}
    </aside>
  );
}

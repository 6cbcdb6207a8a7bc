"use client";
// A card on the board: what a person needs at a glance — title, owner and approver, age, the live lease.
// The fence and the output count are in the drawer's Details.
import { Avatar } from "../avatar";
import { StallBadge } from "../stall-badge";
import { RelativeTime } from "../time";
import { LeaseCountdown } from "../lease-countdown";
import { FindingMark } from "./finding-mark";
import { FlightMark } from "./flight-merge";
import type { Task } from "./types";

function Person({ id, name, kind, role }: { id: string | null; name: string | null; kind: Task["ownerKind"]; role: string }) {
  if (!id || !name || !kind) {
    return <span className="text-[11px] text-neutral-500 dark:text-neutral-400">no {role}</span>;
  }
  return (
    <span className="flex min-w-0 items-center gap-1" title={`${role}: ${name}`}>
      <Avatar id={id} name={name} kind={kind} size="sm" />
      <span className="sr-only">{role}</span>
      <span className="truncate text-[11px] text-neutral-700 dark:text-neutral-300">{name}</span>
    </span>
  );
}

export function TaskCard({ task, selected, onOpen }: { task: Task; selected: boolean; onOpen: (id: string) => void }) {
  return (
    <li>
      <button
        type="button"
        onClick={() => onOpen(task.id)}
        data-testid="task-card"
        data-task-id={task.id}
        data-status={task.status}
        aria-current={selected ? "true" : undefined}
        className={`w-full rounded-md border bg-white p-2.5 text-left shadow-xs transition hover:border-accent-500 dark:bg-neutral-900 ${
          selected ? "border-accent-600 ring-1 ring-accent-600" : "border-neutral-200 dark:border-neutral-800"
        }`}
      >
        <div className="flex items-start gap-2">
          <span className="mt-px font-mono text-[11px] text-neutral-500 dark:text-neutral-400">#{task.number}</span>
          <span className="min-w-0 flex-1 text-sm leading-snug font-medium break-words">{task.title}</span>
        </div>
        <div className="mt-2 flex items-center justify-between gap-2">
          <Person id={task.ownerId} name={task.ownerName} kind={task.ownerKind} role="owner" />
          <span aria-hidden className="text-neutral-300 dark:text-neutral-700">
            →
          </span>
          <Person id={task.approverId} name={task.approverName} kind={task.approverKind} role="approver" />
        </div>
        <div className="mt-2 flex flex-wrap items-center gap-2 text-[11px] text-neutral-600 dark:text-neutral-400">
          <FlightMark taskId={task.id} />
          <FindingMark taskId={task.id} />
          {task.status === "in_progress" && task.leaseExpiresAt && <LeaseCountdown expiresAt={task.leaseExpiresAt} />}
          {task.status === "in_progress" && <StallBadge at={task.stallsAt} />}
          <span data-testid="task-age">
            opened <RelativeTime iso={task.createdAt} />
          </span>
          {!task.acceptanceCriteria && task.status === "ready" && <span className="rounded bg-red-50 px-1 text-red-800 dark:bg-red-950/50 dark:text-red-200">needs criteria</span>}
        </div>
      </button>
    </li>
  );
}

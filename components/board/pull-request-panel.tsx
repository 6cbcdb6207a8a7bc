"use client";
// A remote flight's pull request on the goal's review: its checks as the hub last read them from the forge, and
// what came back from it (reviews asking changes, failed checks) as the team's rework, each with its task.
import Link from "next/link";
import { RelativeTime } from "../time";
import type { FlightView } from "./use-flights";

type PullRequest = NonNullable<FlightView["pullRequest"]>;

const CHECK_STYLE: Record<PullRequest["checks"][number]["state"], { mark: string; word: string; style: string }> = {
  passed: { mark: "✓", word: "passed", style: "text-emerald-700 dark:text-emerald-400" },
  failed: { mark: "✗", word: "failed", style: "text-red-700 dark:text-red-400" },
  pending: { mark: "…", word: "running", style: "text-amber-700 dark:text-amber-400" },
};

const TASK_WORDS: Record<PullRequest["cameBack"][number]["task"]["status"], string> = {
  ready: "waiting for a coder",
  in_progress: "being worked",
  review: "in review",
  done: "accepted, being integrated",
  cancelled: "cancelled",
};

/** How a task that came back stands; once integrated, the flight's branch carries it to the pull request. */
const standing = ({ task, integrated }: PullRequest["cameBack"][number]) =>
  task.status === "done" && integrated ? "integrated: the pull request has it" : TASK_WORDS[task.status];

/** "2 checks passed, 1 failed": what the flight's card says of them, or null before any was read. */
export function checksInWords(pull: PullRequest): string | null {
  if (!pull.checks.length) return null;
  const counts = (["failed", "pending", "passed"] as const).map((state) => [state, pull.checks.filter((c) => c.state === state).length] as const).filter(([, n]) => n > 0);
  return counts.map(([state, n]) => `${n} ${state === "pending" ? "running" : state}`).join(", ");
}

export function PullRequestPanel({ pull }: { pull: PullRequest }) {
  return (
    <div data-testid="pull-request-panel" className="mt-2 space-y-2">
      <p className="text-xs text-neutral-600 dark:text-neutral-300">
        {pull.checkedAt ? (
          <>
            Read from its forge <RelativeTime iso={pull.checkedAt} />; reviews asking changes and failed checks come back to the team as rework.
          </>
        ) : (
          "Not read from its forge yet."
        )}
      </p>
      {pull.checks.length > 0 && (
        <ul aria-label="Checks" className="space-y-0.5">
          {pull.checks.map((check) => {
            const look = CHECK_STYLE[check.state];
            return (
              <li key={check.name} data-testid="pull-request-check" data-state={check.state} className="flex items-baseline gap-1.5">
                <span aria-hidden className={look.style}>
                  {look.mark}
                </span>
                {check.url ? (
                  <a href={check.url} rel="noreferrer" target="_blank" className="underline">
                    {check.name}
                  </a>
                ) : (
                  <span>{check.name}</span>
                )}
                <span className={`text-xs ${look.style}`}>{look.word}</span>
              </li>
            );
          })}
        </ul>
      )}
      {pull.cameBack.length > 0 && (
        <div>
          <h3 className="text-xs font-semibold text-neutral-700 dark:text-neutral-200">Came back from the pull request</h3>
          <ul className="mt-0.5 space-y-0.5">
            {pull.cameBack.map((item) => (
              <li key={item.task.id} data-testid="pull-request-came-back" data-kind={item.kind} className="text-sm">
                <Link href={`/board/${item.task.number}`} className="text-accent-700 underline dark:text-accent-500">
                  #{item.task.number} {item.task.title}
                </Link>{" "}
                <span className="text-xs text-neutral-600 dark:text-neutral-300">— {standing(item)}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

"use client";
// A task on a page of its own (`/board/12`): the review reads like a pull request, the changes wide on the
// left, the criteria, evidence, verdicts and thread beside them.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import Link from "next/link";
import { apiGet } from "../api";
import { queryKeys } from "../query-keys";
import { useMe } from "../session";
import type { Page } from "../types";
import { TaskBudget } from "../bill/task-budget";
import { DiffView } from "./diff-view";
import { FlightMerge } from "./flight-merge";
import { TaskDiagnosis } from "./task-diagnosis";
import { TaskBody } from "./task-drawer";
import { ReviewDialog } from "./review-dialog";
import type { Task, TaskDetail } from "./types";
import type { Me } from "../types";
import { useTaskDetail } from "./use-board";

/** The task numbered `number` (the list pages by number: the first task below number + 1). */
function useTaskByNumber(number: number | null) {
  return useQuery({
    queryKey: [...queryKeys.tasks(), "by-number", number],
    queryFn: async () => {
      const page = await apiGet<Page<Task>>(`/api/tasks?limit=1&before=${number! + 1}`);
      return page.items[0]?.number === number ? page.items[0] : null;
    },
    enabled: number !== null,
  });
}

/**
 * On a phone the diff comes first and the task's actions are far below it: while the task waits for the viewer's
 * verdict, a bar stays at the bottom of the screen with Review in reach.
 */
function PhoneReviewBar({ detail, me }: { detail: TaskDetail; me: Me }) {
  const [open, setOpen] = useState(false);
  const { task } = detail;
  if (task.status !== "review" || task.approverId !== me.id) return null;
  return (
    <div
      className="sticky bottom-0 z-10 flex items-center gap-3 border-t border-neutral-200 bg-white/95 px-3 py-2 md:hidden dark:border-neutral-800 dark:bg-neutral-950/95"
      data-testid="review-bar"
    >
      <span className="min-w-0 flex-1 truncate text-sm">#{task.number} waits for your verdict</span>
      <button type="button" onClick={() => setOpen(true)} className="rounded-md bg-accent-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-accent-700">
        Review
      </button>
      <ReviewDialog task={task} refusal={detail.tests.refusal} asHuman={me.kind === "human"} open={open} onClose={() => setOpen(false)} />
    </div>
  );
}

export function TaskPage({ number: raw }: { number: string }) {
  const me = useMe();
  const number = /^\d{1,15}$/.test(raw) ? Number(raw) : null;
  const found = useTaskByNumber(number);
  const detail = useTaskDetail(found.data?.id ?? null);
  const missing = number === null || (found.isSuccess && found.data === null);
  return (
    <div className="h-full overflow-y-auto">
      <div className="flex items-center gap-2 border-b border-neutral-200 px-3 py-2 text-sm md:px-6 dark:border-neutral-800">
        <Link href="/board" className="text-accent-700 hover:underline dark:text-accent-500">
          Board
        </Link>
        <span aria-hidden>/</span>
        <h1 className="font-semibold">Task #{raw}</h1>
      </div>
      {missing && <p className="p-6 text-sm">There is no task #{raw}. The board lists every task.</p>}
      {(found.isPending || detail.isPending) && !missing && <div className="m-6 h-40 animate-pulse rounded bg-neutral-100 dark:bg-neutral-900" aria-busy />}
      {detail.data && me.data && (
        <div className="grid gap-4 p-3 md:p-6 lg:grid-cols-[minmax(0,1fr)_26rem]">
          <section aria-label="Changes" className="min-w-0">
            <TaskDiagnosis taskId={detail.data.task.id} className="mb-4" />
            <h2 className="mb-2 text-xs font-semibold tracking-wide text-neutral-600 uppercase dark:text-neutral-300">Changes</h2>
            <FlightMerge taskId={detail.data.task.id} />
            <DiffView taskId={detail.data.task.id} />
          </section>
          <div className="min-w-0 rounded-lg border border-neutral-200 dark:border-neutral-800" data-testid="task-page">
            <TaskBudget taskId={detail.data.task.id} />
            <TaskBody detail={detail.data} me={me.data} focusReview={false} withChanges={false} />
          </div>
        </div>
      )}
      {detail.data && me.data && <PhoneReviewBar detail={detail.data} me={me.data} />}
    </div>
  );
}

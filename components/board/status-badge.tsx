// A task status as a word and its colour (ready slate, in progress blue, review amber, done green, cancelled grey).
import { STATUS_LABEL, type TaskStatus } from "./types";

export const STATUS_STYLE: Record<TaskStatus, string> = {
  ready: "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-100",
  in_progress: "bg-blue-100 text-blue-900 dark:bg-blue-900/60 dark:text-blue-100",
  review: "bg-amber-100 text-amber-900 dark:bg-amber-900/60 dark:text-amber-100",
  done: "bg-green-100 text-green-900 dark:bg-green-900/60 dark:text-green-100",
  cancelled: "bg-neutral-200 text-neutral-700 dark:bg-neutral-800 dark:text-neutral-300",
};

export const STATUS_DOT: Record<TaskStatus, string> = {
  ready: "bg-slate-400",
  in_progress: "bg-blue-500",
  review: "bg-amber-500",
  done: "bg-green-600",
  cancelled: "bg-neutral-400",
};

export function StatusBadge({ status }: { status: TaskStatus }) {
  return <span className={`rounded px-1.5 py-0.5 text-[11px] font-semibold ${STATUS_STYLE[status]}`}>{STATUS_LABEL[status]}</span>;
}

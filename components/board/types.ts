// Shapes of the task board as the browser receives them: the server's own view types, so the two
// cannot drift apart (type-only imports; nothing of server/ reaches the browser bundle).
import type { TaskStatus } from "@/server/tasks/view";
export type { TaskStatus };
export type { TaskView as Task } from "@/server/tasks/view";
export type { EvidenceView as Evidence, ReviewView as Review, AdrView as Adr, TaskDetail } from "@/server/tasks/get";
export type { OutputItem } from "@/server/tasks/list-output";
export type { DiffFile, DiffHunk, TaskDiff } from "@/server/flights/task-diff";

export const COLUMNS: { status: TaskStatus; label: string }[] = [
  { status: "ready", label: "Ready" },
  { status: "in_progress", label: "In progress" },
  { status: "review", label: "Review" },
  { status: "done", label: "Done" },
];

export const STATUS_LABEL: Record<TaskStatus, string> = {
  ready: "Ready",
  in_progress: "In progress",
  review: "Review",
  done: "Done",
  cancelled: "Cancelled",
};

// Shapes of the task board as the browser receives them: the server's own view types, so the two
// cannot drift apart (type-only imports; nothing of domain/ reaches the browser bundle).
import type { TaskStatus } from "@/domain/tasks/view";
export type { TaskStatus };
export type { TaskView as Task } from "@/domain/tasks/view";
export type { EvidenceView as Evidence, ReviewView as Review, AdrView as Adr, TaskDetail } from "@/domain/tasks/get";
export type { OutputItem } from "@/domain/tasks/list-output";
export type { DiffFile, DiffHunk, TaskDiff } from "@/domain/flights/task-diff";

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

// Shapes of the task board as the browser receives them (mirrors of server/tasks views).
import type { Message } from "../types";

export type TaskStatus = "ready" | "in_progress" | "review" | "done" | "cancelled";
type Kind = "human" | "agent" | "system";

export interface Task {
  id: string;
  number: number;
  title: string;
  description: string;
  acceptanceCriteria: string | null;
  status: TaskStatus;
  ownerId: string | null;
  ownerName: string | null;
  ownerKind: Kind | null;
  approverId: string;
  approverName: string;
  approverKind: Kind;
  fence: number;
  leaseMinutes: number | null;
  leaseExpiresAt: string | null;
  outputCount: number;
  offeredTo: string | null;
  parentId: string | null;
  adrId: string | null;
  createdBy: string;
  createdByName: string;
  createdAt: string;
  updatedAt: string;
}

export interface Evidence {
  id: number;
  kind: "submission" | "reopen";
  authorId: string;
  authorName: string;
  fence: number | null;
  summary: string | null;
  evidence: string;
  createdAt: string;
}

export interface Review {
  id: number;
  reviewerId: string;
  reviewerName: string;
  ownerId: string;
  verdict: "accept" | "reject";
  reason: string | null;
  createdAt: string;
}

export interface Adr {
  id: string;
  title: string;
  context: string;
  decision: string;
  consequences: string;
  authorId: string;
  authorName: string;
  createdAt: string;
}

export interface OutputItem {
  seq: number;
  item: unknown;
  fence: number;
  authorId: string;
  createdAt: string;
}

export interface TaskDetail {
  task: Task;
  evidence: Evidence[];
  reviews: Review[];
  adr: Adr | null;
  outputTail: OutputItem[];
  thread: Message[];
}

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

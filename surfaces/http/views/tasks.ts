// A task, its detail page (evidence, reviews, output, thread) and the diff of its work: the views of
// the task board, kept together because the detail embeds the others.
import { z } from "zod";
import type { TaskDiff } from "@/domain/flights/task-diff";
import type { ReviewCommentView } from "@/domain/tasks/comments";
import type { TaskDetail } from "@/domain/tasks/get";
import type { OutputItem } from "@/domain/tasks/list-output";
import type { TaskView } from "@/domain/tasks/view";
import { open, uuid, when, kind, int } from "./base";
import { message } from "./rooms";

export const task = open({
  id: uuid,
  number: int,
  title: z.string(),
  description: z.string(),
  acceptanceCriteria: z.string().nullable(),
  targetTests: z.array(z.string()),
  status: z.enum(["ready", "in_progress", "review", "done", "cancelled"]),
  ownerId: uuid.nullable(),
  ownerName: z.string().nullable(),
  ownerKind: kind.nullable(),
  approverId: uuid,
  approverName: z.string(),
  approverKind: kind,
  fence: int,
  leaseMinutes: int.nullable(),
  leaseExpiresAt: when.nullable(),
  stallsAt: when.nullable(),
  outputCount: int,
  waitingOn: int,
  offeredTo: uuid.nullable(),
  parentId: uuid.nullable(),
  adrId: uuid.nullable(),
  createdBy: uuid,
  createdByName: z.string(),
  createdAt: when,
  updatedAt: when,
}) satisfies z.ZodType<TaskView>;
const diffFile = open({
  path: z.string(),
  from: z.string().nullable(),
  status: z.enum(["added", "deleted", "modified", "renamed"]),
  additions: int,
  deletions: int,
  binary: z.boolean(),
  shown: z.boolean(),
  hunks: z.array(open({ header: z.string(), lines: z.array(open({ kind: z.enum(["add", "del", "context"]), text: z.string() })) })),
});
export const taskDiff = open({
  source: z.string(),
  available: z.boolean(),
  files: z.array(diffFile),
  additions: int,
  deletions: int,
  truncated: z.boolean(),
  commits: z.array(open({ sha: z.string(), subject: z.string(), author: z.string() })),
}) satisfies z.ZodType<TaskDiff>;
export const outputItem = open({ seq: int, item: z.unknown(), fence: int, authorId: uuid, createdAt: when }) satisfies z.ZodType<OutputItem>;
export const reviewComment = open({
  id: uuid,
  authorId: uuid,
  authorName: z.string(),
  path: z.string(),
  side: z.enum(["new", "old"]).describe("`new`: a line of the file as the branch has it; `old`: a removed line, by its old number"),
  line: int,
  endLine: int,
  body: z.string(),
  pending: z.boolean().describe("not sent with a verdict yet; its author may withdraw it"),
  createdAt: when,
}) satisfies z.ZodType<ReviewCommentView>;
export const taskDetail = open({
  task,
  evidence: z.array(open({ id: int, kind: z.enum(["submission", "reopen"]), authorId: uuid, evidence: z.string(), createdAt: when })),
  reviews: z.array(open({ id: int, reviewerId: uuid, verdict: z.enum(["accept", "reject"]), reason: z.string().nullable(), createdAt: when })),
  adr: open({ id: uuid, title: z.string(), context: z.string(), decision: z.string(), consequences: z.string() }).nullable(),
  comments: z.array(reviewComment).describe("the reviewers' comments on lines of the diff, oldest first"),
  outputTail: z.array(outputItem),
  thread: z.array(message),
  tests: open({
    targets: z.array(z.string()),
    submitted: open({
      format: z.string(),
      namesPasses: z.boolean(),
      passed: z.array(z.string()),
      failed: z.array(z.string()),
      skipped: z.array(z.string()),
      truncated: z.boolean(),
    }).nullable(),
    hasBaseline: z.boolean(),
    delta: open({
      fixed: z.array(z.string()),
      stillFailing: z.array(z.string()),
      unseen: z.array(z.string()),
      broken: z.array(z.string()),
      repaired: z.array(z.string()),
    }).nullable(),
    refusal: z.string().nullable(),
  }),
}) satisfies z.ZodType<Pick<TaskDetail, "task" | "outputTail" | "thread" | "comments">>;

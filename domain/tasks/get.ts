// One task with everything its drawer shows: evidence, reviews, the ADR, output so far and its thread.
import { and, asc, desc, eq } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { adrs, messages, principals, taskEvidence, taskOutputs, taskReviews } from "../../db/schema";
import type { Executor } from "../../db/client";
import type { Principal } from "../principal";
import { messagesVisibleTo } from "../journal/visibility";
import { selectMessageViews, toMessageView, type MessageView } from "../rooms/message-view";
import type { OutputItem } from "./list-output";
import { commentsOf, type ReviewCommentView } from "./comments";
import { readTaskTests, type TaskTests } from "./tests";
import { assertTaskId, readTaskView, type TaskView } from "./view";

const THREAD_LIMIT = 200;
const OUTPUT_TAIL = 20;

export interface EvidenceView {
  id: number;
  kind: "submission" | "reopen";
  authorId: string;
  authorName: string;
  fence: number | null;
  summary: string | null;
  evidence: string;
  createdAt: string;
}

export interface ReviewView {
  id: number;
  reviewerId: string;
  reviewerName: string;
  ownerId: string;
  verdict: "accept" | "reject";
  reason: string | null;
  createdAt: string;
}

export interface AdrView {
  id: string;
  title: string;
  context: string;
  decision: string;
  consequences: string;
  authorId: string;
  authorName: string;
  createdAt: string;
}

export interface TaskDetail {
  task: TaskView;
  evidence: EvidenceView[];
  reviews: ReviewView[];
  adr: AdrView | null;
  /** The latest output items (the full list pages through GET /api/tasks/:id/output). */
  outputTail: OutputItem[];
  /** The task's messages in every room, oldest first (the latest 200). */
  thread: MessageView[];
  /** Its target tests and, once a submission carried per-test results, what they say against the baseline. */
  tests: TaskTests;
  /** The reviewers' comments on lines of its diff, oldest first (./comments.ts). */
  comments: ReviewCommentView[];
}

const author = alias(principals, "author");

export async function getTaskDetail(db: Executor, caller: Principal, taskId: string): Promise<TaskDetail> {
  // Checked first, so the reads sent beside the task's own never see a malformed id (404, not a database error).
  assertTaskId(taskId);
  // The task and what hangs off it are read together: one round trip's wait, not two.
  const [task, evidence, reviews, adr, outputTail, thread, tests, comments] = await Promise.all([
    readTaskView(db, taskId),
    db
      .select({ row: taskEvidence, authorName: author.name })
      .from(taskEvidence)
      .innerJoin(author, eq(author.id, taskEvidence.authorId))
      .where(eq(taskEvidence.taskId, taskId))
      .orderBy(asc(taskEvidence.id)),
    db
      .select({ row: taskReviews, reviewerName: author.name })
      .from(taskReviews)
      .innerJoin(author, eq(author.id, taskReviews.reviewerId))
      .where(eq(taskReviews.taskId, taskId))
      .orderBy(asc(taskReviews.id)),
    db.select({ row: adrs, authorName: author.name }).from(adrs).innerJoin(author, eq(author.id, adrs.authorId)).where(eq(adrs.taskId, taskId)),
    db.select().from(taskOutputs).where(eq(taskOutputs.taskId, taskId)).orderBy(desc(taskOutputs.seq)).limit(OUTPUT_TAIL),
    selectMessageViews(db)
      // The room's rule: direct messages are seen by their two ends and by humans.
      .where(and(eq(messages.taskId, taskId), messagesVisibleTo(caller)))
      .orderBy(desc(messages.id))
      .limit(THREAD_LIMIT),
    readTaskTests(db, taskId),
    commentsOf(db, taskId),
  ]);
  return {
    task,
    evidence: evidence.map(({ row, authorName }) => ({
      id: row.id,
      kind: row.kind,
      authorId: row.authorId,
      authorName,
      fence: row.fence,
      summary: row.summary,
      evidence: row.evidence,
      createdAt: row.createdAt.toISOString(),
    })),
    reviews: reviews.map(({ row, reviewerName }) => ({
      id: row.id,
      reviewerId: row.reviewerId,
      reviewerName,
      ownerId: row.ownerId,
      verdict: row.verdict,
      reason: row.reason,
      createdAt: row.createdAt.toISOString(),
    })),
    adr:
      adr.map(({ row, authorName }) => ({
        id: row.id,
        title: row.title,
        context: row.context,
        decision: row.decision,
        consequences: row.consequences,
        authorId: row.authorId,
        authorName,
        createdAt: row.createdAt.toISOString(),
      }))[0] ?? null,
    outputTail: outputTail.reverse().map((r) => ({ seq: r.seq, item: r.item, fence: r.fence, authorId: r.authorId, createdAt: r.createdAt.toISOString() })),
    thread: thread.reverse().map(toMessageView),
    tests,
    comments,
  };
}

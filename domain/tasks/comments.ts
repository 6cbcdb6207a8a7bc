// A reviewer's comments on lines of a task's diff, as on a pull request: the task's approver writes them while
// the task is in review; they stay pending until the verdict, and a request for changes carries them to the
// owner, who reworks from them (each with its file and line). Pending ones can be withdrawn; sent ones stay.
import { and, asc, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { principals, reviewComments } from "../../db/schema";
import type { Db, Executor, Tx } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { isUuid } from "../ids";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { textField } from "./text";
import { lockTask, type TaskRow } from "./view";

const MAX_LINE = 10_000_000;

/** A path as the diff names it: relative, forward slashes, no `..` or empty step. */
const diffPath = z
  .string()
  .min(1)
  .max(1_000)
  .refine((p) => !p.startsWith("/") && p.split("/").every((step) => step !== "" && step !== "." && step !== ".."), "a file's path in the diff, relative to the repository")
  .refine((p) => ![...p].some((ch) => ch.charCodeAt(0) < 0x20), "a path has no control characters");

export const reviewCommentInput = z
  .strictObject({
    path: diffPath,
    /** `new` (the default): a line of the file as the branch has it; `old`: a removed line, by its old number. */
    side: z.enum(["new", "old"]).default("new"),
    line: z.number().int().min(1).max(MAX_LINE),
    /** The last line of a range (inclusive); one line when absent. */
    endLine: z.number().int().min(1).max(MAX_LINE).optional(),
    body: textField(4_000, "say what should change here"),
  })
  .refine((c) => c.endLine === undefined || c.endLine >= c.line, { message: "endLine comes at or after line", path: ["endLine"] });
export type ReviewCommentInput = z.input<typeof reviewCommentInput>;

export interface ReviewCommentView {
  id: string;
  authorId: string;
  authorName: string;
  path: string;
  side: "new" | "old";
  line: number;
  endLine: number;
  body: string;
  /** Not sent with a verdict yet: its author may still withdraw it. */
  pending: boolean;
  createdAt: string;
}

function requireApproverInReview(task: TaskRow, caller: Principal, act: string): void {
  if (task.approverId !== caller.id) throw fail.forbidden("task", `only the approver of task #${task.number} may ${act}`);
  if (task.status !== "review") throw fail.conflict("task", "wrong_status", `task #${task.number} is ${task.status}: comments are written while it is in review`);
}

/** Comments on the task's diff, oldest first. */
export async function commentsOf(db: Executor, taskId: string): Promise<ReviewCommentView[]> {
  const rows = await db
    .select({ row: reviewComments, authorName: principals.name })
    .from(reviewComments)
    .innerJoin(principals, eq(principals.id, reviewComments.authorId))
    .where(eq(reviewComments.taskId, taskId))
    .orderBy(asc(reviewComments.createdAt), asc(reviewComments.id));
  return rows.map(({ row, authorName }) => ({
    id: row.id,
    authorId: row.authorId,
    authorName,
    path: row.path,
    side: row.side,
    line: row.line,
    endLine: row.endLine,
    body: row.body,
    pending: row.reviewId === null,
    createdAt: row.createdAt.toISOString(),
  }));
}

export async function addReviewComment(db: Db, caller: Principal, taskId: string, raw: ReviewCommentInput, clock: Clock): Promise<ReviewCommentView> {
  const input = reviewCommentInput.parse(raw);
  const now = clock.now();
  const id = await db.transaction(async (tx) => {
    const task = await lockTask(tx, taskId);
    requireApproverInReview(task, caller, "comment on its changes");
    const endLine = input.endLine ?? input.line;
    const [row] = await tx
      .insert(reviewComments)
      .values({ taskId: task.id, authorId: caller.id, path: input.path, side: input.side, line: input.line, endLine, body: input.body, createdAt: now })
      .returning({ id: reviewComments.id });
    await appendEvent(tx, {
      kind: "ReviewCommented",
      actor: caller.id,
      taskId: task.id,
      t: now,
      data: { number: task.number, commentId: row.id, path: input.path, side: input.side, line: input.line, endLine, body: input.body },
    });
    return row.id;
  });
  const made = (await commentsOf(db, taskId)).find((c) => c.id === id);
  return made!;
}

/** Withdraws a pending comment of the caller's; a comment sent with a verdict is part of the record (409). */
export async function withdrawReviewComment(db: Db, caller: Principal, taskId: string, commentId: string, clock: Clock): Promise<void> {
  const now = clock.now();
  await db.transaction(async (tx) => {
    const task = await lockTask(tx, taskId);
    const [comment] = isUuid(commentId)
      ? await tx
          .select()
          .from(reviewComments)
          .where(and(eq(reviewComments.id, commentId), eq(reviewComments.taskId, task.id)))
      : [];
    if (!comment) throw fail.notFound("task", `task #${task.number} has no comment ${commentId.slice(0, 64)}`);
    if (comment.authorId !== caller.id) throw fail.forbidden("task", "only a comment's author may withdraw it");
    if (comment.reviewId !== null) throw fail.conflict("task", "comment_sent", "this comment went with a verdict: it is part of the review now");
    await tx.delete(reviewComments).where(eq(reviewComments.id, comment.id));
    await appendEvent(tx, { kind: "ReviewCommentWithdrawn", actor: caller.id, taskId: task.id, t: now, data: { number: task.number, commentId: comment.id } });
  });
}

/** Sends the reviewer's pending comments with its verdict (in the review's transaction); how many went. */
export async function sendPendingComments(tx: Tx, reviewerId: string, taskId: string, reviewId: number): Promise<number> {
  const sent = await tx
    .update(reviewComments)
    .set({ reviewId })
    .where(and(eq(reviewComments.taskId, taskId), eq(reviewComments.authorId, reviewerId), isNull(reviewComments.reviewId)))
    .returning({ id: reviewComments.id });
  return sent.length;
}

/** The comments a request for changes carried, as the owner reads them: `path:line` and what to change. */
export async function commentsOfReview(db: Executor, reviewId: number): Promise<Pick<ReviewCommentView, "path" | "side" | "line" | "endLine" | "body">[]> {
  return db
    .select({ path: reviewComments.path, side: reviewComments.side, line: reviewComments.line, endLine: reviewComments.endLine, body: reviewComments.body })
    .from(reviewComments)
    .where(eq(reviewComments.reviewId, reviewId))
    .orderBy(asc(reviewComments.path), asc(reviewComments.line));
}

/** One comment as a line the owner's model reads. */
export function commentLine(c: Pick<ReviewCommentView, "path" | "side" | "line" | "endLine" | "body">): string {
  const where = c.endLine > c.line ? `${c.path}:${c.line}-${c.endLine}` : `${c.path}:${c.line}`;
  return `- ${where}${c.side === "old" ? " (a removed line)" : ""}: ${c.body}`;
}

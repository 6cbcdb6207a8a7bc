// Line comments on a task's diff, as on a pull request: its approver writes them while it is in review, and
// they go with the verdict (domain/tasks/comments.ts).
import { z } from "zod";
import { addReviewComment, reviewCommentInput, withdrawReviewComment } from "@/domain/tasks/comments";
import { taskIdOf, taskRef } from "@/domain/tasks/ref";
import * as v from "../views";
import { created, endpoint, noContent, type RouteSpec, TAGS } from "./route-spec";

export const REVIEW_COMMENT_ROUTES: RouteSpec[] = [
  endpoint({
    method: "post",
    path: "/api/tasks/{id}/comments",
    tag: TAGS.tasks,
    summary: "Comment on a line or lines of a task's diff (its approver, while it is in review)",
    description:
      "The comment stays pending until the approver's verdict, which takes it along: a request for changes (`reject`) sends the task back " +
      "with its comments as what to rework, each with its file and line. 409 `wrong_status` outside review.",
    access: "principal",
    params: z.strictObject({ id: taskRef }),
    body: reviewCommentInput,
    answers: created(v.reviewComment),
    refusals: [403, 404, 409],
    otherConflicts: ["wrong_status"],
    run: async ({ ctx, caller, params, body }) => addReviewComment(ctx.db, caller, await taskIdOf(ctx.db, params.id), body, ctx.clock),
  }),
  endpoint({
    method: "delete",
    path: "/api/tasks/{id}/comments/{commentId}",
    tag: TAGS.tasks,
    summary: "Withdraw a pending comment of yours (one sent with a verdict stays: 409 `comment_sent`)",
    access: "principal",
    params: z.strictObject({ id: taskRef, commentId: z.string().max(200) }),
    answers: [noContent("Withdrawn")],
    refusals: [403, 404, 409],
    otherConflicts: ["comment_sent"],
    run: async ({ ctx, caller, params }) => {
      await withdrawReviewComment(ctx.db, caller, await taskIdOf(ctx.db, params.id), params.commentId, ctx.clock);
      return null;
    },
  }),
];

// Line comments on a task's diff: its approver writes them while it is in review, they stay pending (and can be
// withdrawn) until the verdict, and a request for changes carries them to the owner, by file and line.
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { events } from "../../db/schema";
import { makeAgent, makeHuman } from "../../test/helpers";
import { refusalOf } from "../../test/fixtures/refusal";
import { systemClock } from "../clock";
import { claimTask } from "./claim";
import { addReviewComment, commentLine, commentsOf, commentsOfReview, withdrawReviewComment } from "./comments";
import { createTask } from "./create";
import { getTaskDetail } from "./get";
import { reviewTask } from "./review";
import { submitTask } from "./submit";

async function taskInReview() {
  const db = getDb();
  const human = await makeHuman();
  const coder = await makeAgent();
  const task = await createTask(db, human, { title: "Parse empty input", acceptanceCriteria: "parse('') is []", approverId: human.id }, systemClock);
  const { fence } = await claimTask(db, coder, task.id, systemClock);
  await submitTask(db, coder, task.id, { fence, summary: "handled it", evidence: "2 passed" }, systemClock);
  return { db, human, coder, task };
}

describe("line comments", () => {
  it("are written by the approver while the task is in review, journalled, and shown pending with the task", async () => {
    const { db, human, task } = await taskInReview();
    const one = await addReviewComment(db, human, task.id, { path: "src/parse.js", line: 2, body: "Return [] before splitting." }, systemClock);
    const range = await addReviewComment(db, human, task.id, { path: "test/parse.test.js", side: "old", line: 4, endLine: 6, body: "Keep this test." }, systemClock);
    expect(one).toMatchObject({ path: "src/parse.js", side: "new", line: 2, endLine: 2, pending: true, authorName: human.name });
    expect(range).toMatchObject({ side: "old", line: 4, endLine: 6 });
    const detail = await getTaskDetail(db, human, task.id);
    expect(detail.comments.map((c) => c.body)).toEqual(["Return [] before splitting.", "Keep this test."]);
    const journalled = await db
      .select()
      .from(events)
      .where(and(eq(events.kind, "ReviewCommented"), eq(events.taskId, task.id)));
    expect(journalled.map((e) => e.data)).toEqual([
      expect.objectContaining({ commentId: one.id, path: "src/parse.js", line: 2, endLine: 2, body: "Return [] before splitting." }),
      expect.objectContaining({ commentId: range.id, side: "old", line: 4, endLine: 6 }),
    ]);
  });

  it("are refused to anyone but the approver, outside review, and for a path outside the repository or a backwards range", async () => {
    const { db, human, coder, task } = await taskInReview();
    const comment = { path: "src/parse.js", line: 2, body: "Here." };
    expect((await refusalOf(addReviewComment(db, coder, task.id, comment, systemClock))).status).toBe(403);
    expect((await refusalOf(addReviewComment(db, await makeHuman(), task.id, comment, systemClock))).status).toBe(403);
    for (const path of ["../etc/passwd", "/etc/passwd", "src//parse.js", "src/./parse.js"]) {
      await expect(addReviewComment(db, human, task.id, { ...comment, path }, systemClock)).rejects.toThrow(/relative to the repository/);
    }
    await expect(addReviewComment(db, human, task.id, { ...comment, line: 5, endLine: 3 }, systemClock)).rejects.toThrow(/endLine comes at or after line/);
    await expect(addReviewComment(db, human, task.id, { ...comment, path: "src/pa\u0007rse.js" }, systemClock)).rejects.toThrow(/no control characters/);
    await expect(addReviewComment(db, human, task.id, { ...comment, body: "   " }, systemClock)).rejects.toThrow(/say what should change here/);
    await reviewTask(db, human, task.id, { verdict: "accept" }, systemClock);
    const late = await refusalOf(addReviewComment(db, human, task.id, comment, systemClock));
    expect([late.status, late.code]).toEqual([409, "wrong_status"]);
    expect(await commentsOf(db, task.id)).toEqual([]);
  });

  it("can be withdrawn while pending, by their author only", async () => {
    const { db, human, coder, task } = await taskInReview();
    const comment = await addReviewComment(db, human, task.id, { path: "src/parse.js", line: 1, body: "Not this one after all." }, systemClock);
    expect((await refusalOf(withdrawReviewComment(db, coder, task.id, comment.id, systemClock))).status).toBe(403);
    expect((await refusalOf(withdrawReviewComment(db, human, task.id, "not-a-comment", systemClock))).status).toBe(404);
    await withdrawReviewComment(db, human, task.id, comment.id, systemClock);
    expect(await commentsOf(db, task.id)).toEqual([]);
    const [withdrawn] = await db
      .select()
      .from(events)
      .where(and(eq(events.kind, "ReviewCommentWithdrawn"), eq(events.taskId, task.id)));
    expect(withdrawn.data).toMatchObject({ commentId: comment.id });
  });

  it("go with a request for changes: sent, no longer withdrawable, counted in the review, read by file and line", async () => {
    const { db, human, coder, task } = await taskInReview();
    const first = await addReviewComment(db, human, task.id, { path: "src/parse.js", line: 2, body: "Return [] for an empty string." }, systemClock);
    await addReviewComment(db, human, task.id, { path: "src/parse.js", line: 5, endLine: 7, body: "Trim each field." }, systemClock);
    await reviewTask(db, human, task.id, { verdict: "reject", reason: "Two things, on the lines." }, systemClock);
    const comments = await commentsOf(db, task.id);
    expect(comments.map((c) => c.pending)).toEqual([false, false]);
    const [reviewed] = await db
      .select()
      .from(events)
      .where(and(eq(events.kind, "TaskReviewed"), eq(events.taskId, task.id)));
    expect(reviewed.data).toMatchObject({ verdict: "reject", comments: 2 });
    const sent = await refusalOf(withdrawReviewComment(db, human, task.id, first.id, systemClock));
    expect([sent.status, sent.code]).toEqual([409, "comment_sent"]);
    const [review] = (await getTaskDetail(db, coder, task.id)).reviews;
    expect((await commentsOfReview(db, review.id)).map(commentLine)).toEqual(["- src/parse.js:2: Return [] for an empty string.", "- src/parse.js:5-7: Trim each field."]);
  });
});

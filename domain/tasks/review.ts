// The approver's verdict: ACCEPT → done; REJECT (request changes) with a reason, and the reviewer's pending line
// comments, → back in progress for the same owner. An ACCEPT
// passes the tests' gate (./tests.ts): its target tests pass and nothing is newly broken, or a human overrules it.
import { eq } from "drizzle-orm";
import { z } from "zod";
import { taskReviews, tasks } from "../../db/schema";
import type { Db, Tx } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { openFocusWindow } from "../rooms/focus";
import { requireMove } from "./moves";
import { leaseEnd } from "./lease";
import { announceVerdict } from "./announce-review";
import { sendPendingComments } from "./comments";
import { readTaskTests } from "./tests";
import { textField } from "./text";
import { lockTask, readTaskView, type TaskView } from "./view";

export const reviewTaskInput = z.discriminatedUnion("verdict", [
  z.strictObject({
    verdict: z.literal("accept"),
    reason: textField(4_000).optional(),
    /** A human accepting over the tests' refusal says why; journalled with the refusal. */
    overrule: textField(4_000, "say why you accept over the tests").optional(),
  }),
  z.strictObject({ verdict: z.literal("reject"), reason: textField(4_000, "a rejection needs a reason the owner can act on") }),
]);
export type ReviewTaskInput = z.infer<typeof reviewTaskInput>;

export async function reviewTask(db: Db, caller: Principal, taskId: string, input: ReviewTaskInput, clock: Clock): Promise<TaskView> {
  const now = clock.now();
  const reviewed = await db.transaction(async (tx) => {
    const task = await lockTask(tx, taskId);
    if (task.approverId !== caller.id) throw fail.forbidden("task", `only the approver of task #${task.number} may review it`);
    requireMove(task, input.verdict === "accept" ? "accept" : "reject", "review");
    // The owner is set in review (a CHECK); the approver is never the owner (another CHECK).
    const ownerId = task.ownerId!;
    const reason = input.reason || null;
    const overruled = input.verdict === "accept" ? await passTestsGate(tx, caller, task.id, task.number, input.overrule) : null;
    const [review] = await tx
      .insert(taskReviews)
      .values({ taskId: task.id, reviewerId: caller.id, ownerId, verdict: input.verdict, reason, createdAt: now })
      .returning({ id: taskReviews.id });
    // The reviewer's pending line comments go with the verdict: for a rejection, they are what to rework.
    const comments = await sendPendingComments(tx, caller.id, task.id, review.id);
    // Rework is not a new claim: the owner keeps its fence and gets a fresh lease.
    const next = input.verdict === "accept" ? { status: "done" as const } : { status: "in_progress" as const, leaseExpiresAt: leaseEnd(task, now) };
    await tx
      .update(tasks)
      .set({ ...next, updatedAt: now })
      .where(eq(tasks.id, task.id));
    await appendEvent(tx, {
      kind: "TaskReviewed",
      actor: caller.id,
      taskId: task.id,
      t: now,
      data: {
        number: task.number,
        verdict: input.verdict,
        reason,
        ownerId,
        reviewerId: caller.id,
        fence: task.fence,
        ...(overruled && { overruled }),
        ...(comments > 0 && { comments }),
      },
    });
    if (input.verdict === "reject") await openFocusWindow(tx, ownerId, task.id, now);
    return readTaskView(tx, task.id);
  });
  // After the commit, in its own transaction (Quorum passes no gate), as the escalations are announced.
  if (caller.kind === "human") await announceVerdict(db, caller, reviewed, input.verdict, input.reason || null, clock);
  return reviewed;
}

/** The tests' gate on an ACCEPT: passes, or a human overrules it (returned, to journal), or it refuses. */
async function passTestsGate(tx: Tx, caller: Principal, taskId: string, number: number, overrule: string | undefined) {
  const { refusal } = await readTaskTests(tx, taskId);
  if (!refusal) {
    if (overrule) throw fail.invalid("task", `nothing to overrule: the tests do not refuse #${number}`);
    return null;
  }
  if (!overrule) {
    const next = caller.kind === "human" ? "accept anyway by saying why in `overrule`, or reject it" : "reject it with these words, so its owner can fix them";
    throw fail.conflict("task", "tests_refuse", `the tests refuse to accept #${number}: ${refusal}. ${next}`, { refusal });
  }
  if (caller.kind !== "human") throw fail.forbidden("task", "only a human accepts over the tests");
  return { refusal, reason: overrule };
}

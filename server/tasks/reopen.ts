// Reopens a done task, only on new evidence: it goes back to ready for anyone to claim.
import { eq } from "drizzle-orm";
import { z } from "zod";
import { taskEvidence, tasks } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principals/types";
import { comparableText } from "../visible-text";
import { requireStatus, requireSteward } from "./guards";
import { MAX_EVIDENCE_CHARS } from "./submit";
import { textField } from "./text";
import { lockTask, readTaskView, type TaskView } from "./view";

export const reopenTaskInput = z.strictObject({
  /** What is new since the task was accepted: a failing test, a bug report, a diff. */
  evidence: textField(MAX_EVIDENCE_CHARS, "reopen with new evidence"),
});
export type ReopenTaskInput = z.infer<typeof reopenTaskInput>;

export async function reopenTask(db: Db, caller: Principal, taskId: string, input: ReopenTaskInput, clock: Clock): Promise<TaskView> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const task = await lockTask(tx, taskId);
    requireSteward(task, caller, "reopen it");
    requireStatus(task, ["done"], "reopen");
    // Evidence already on record is no diff: reopening needs something nobody has seen on this task. Every
    // submission and every earlier reopen counts, compared without case, whitespace or invisible characters.
    const onRecord = await tx.select({ evidence: taskEvidence.evidence }).from(taskEvidence).where(eq(taskEvidence.taskId, task.id));
    const offered = comparableText(input.evidence);
    if (onRecord.some((r) => comparableText(r.evidence) === offered)) {
      throw fail.invalid("task", "this evidence is already on record: reopen with new evidence", {
        issues: [{ path: ["evidence"], message: "the same as evidence already on record for this task (case and spacing aside)" }],
      });
    }
    const [record] = await tx
      .insert(taskEvidence)
      .values({ taskId: task.id, kind: "reopen", authorId: caller.id, evidence: input.evidence, createdAt: now })
      .returning({ id: taskEvidence.id });
    await tx.update(tasks).set({ status: "ready", ownerId: null, offeredTo: null, updatedAt: now }).where(eq(tasks.id, task.id));
    await appendEvent(tx, {
      kind: "TaskReopened",
      actor: caller.id,
      taskId: task.id,
      t: now,
      data: { number: task.number, evidenceId: record.id, previousOwnerId: task.ownerId },
    });
    return readTaskView(tx, task.id);
  });
}

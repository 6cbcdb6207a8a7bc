// Reopens a done task, only on new evidence: it goes back to ready for anyone to claim.
import { eq } from "drizzle-orm";
import { z } from "zod";
import { journalArchivedTasks, taskEvidence, tasks } from "../../db/schema";
import type { Db, Tx } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { comparableText } from "../visible-text";
import { requireSteward } from "./guards";
import { requireMove } from "./moves";
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
  return db.transaction((tx) => reopenInTransaction(tx, caller, taskId, input, now));
}

/**
 * reopenTask inside the caller's transaction. `offerTo` offers the task back to someone (its claim-next
 * takes it first): a flight's integrator sends a task whose merge conflicted back to its coder this way.
 */
export async function reopenInTransaction(tx: Tx, caller: Principal, taskId: string, input: ReopenTaskInput, now: Date, offerTo: string | null = null): Promise<TaskView> {
  const task = await lockTask(tx, taskId);
  requireSteward(task, caller, "reopen it");
  requireMove(task, "reopen");
  // A task back at work is folded from its whole history (its rework rounds, its releases): an archived month
  // of it comes back first (DESIGN §4).
  const [archived] = await tx.select({ month: journalArchivedTasks.month }).from(journalArchivedTasks).where(eq(journalArchivedTasks.taskId, task.id)).limit(1);
  if (archived) {
    throw fail.conflict(
      "task",
      "archived",
      `task #${task.number}'s history was archived with ${archived.month.slice(0, 7)}: restore that month (quorum journal restore) before reopening it`,
      {
        month: archived.month,
      },
    );
  }
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
  await tx.update(tasks).set({ status: "ready", ownerId: null, offeredTo: offerTo, updatedAt: now }).where(eq(tasks.id, task.id));
  await appendEvent(tx, {
    kind: "TaskReopened",
    actor: caller.id,
    taskId: task.id,
    t: now,
    data: { number: task.number, evidenceId: record.id, previousOwnerId: task.ownerId, ...(offerTo ? { offeredTo: offerTo } : {}) },
  });
  return readTaskView(tx, task.id);
}

// Hands the owner's work to review with a summary and its evidence; the focus window closes.
import { eq } from "drizzle-orm";
import { z } from "zod";
import { taskEvidence, tasks } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principals/types";
import { closeFocusWindow } from "../relay/focus";
import { fenceField, requireOwnerWrite } from "./guards";
import { textField } from "./text";
import { lockTask, readTaskView, type TaskView } from "./view";

export const MAX_EVIDENCE_CHARS = 256 * 1024;

export const submitTaskInput = z.strictObject({
  fence: fenceField,
  summary: textField(4_000, "say what was done"),
  /** Test output, a diff, a link: what the approver judges the work on. */
  evidence: textField(MAX_EVIDENCE_CHARS, "submit with evidence (test output, a diff…)"),
});
export type SubmitTaskInput = z.infer<typeof submitTaskInput>;

export async function submitTask(db: Db, caller: Principal, taskId: string, input: SubmitTaskInput, clock: Clock): Promise<TaskView> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const task = await lockTask(tx, taskId);
    requireOwnerWrite(task, caller, input.fence, "submit");
    const [record] = await tx
      .insert(taskEvidence)
      .values({ taskId: task.id, kind: "submission", authorId: caller.id, fence: task.fence, summary: input.summary, evidence: input.evidence, createdAt: now })
      .returning({ id: taskEvidence.id });
    await tx.update(tasks).set({ status: "review", leaseExpiresAt: null, updatedAt: now }).where(eq(tasks.id, task.id));
    await appendEvent(tx, {
      kind: "TaskSubmitted",
      actor: caller.id,
      taskId: task.id,
      t: now,
      data: { number: task.number, fence: task.fence, summary: input.summary, evidenceId: record.id, outputCount: task.outputCount },
    });
    await closeFocusWindow(tx, caller.id, now);
    return readTaskView(tx, task.id);
  });
}

// Cancels a task only with an ADR (title, context, decision, consequences): no quiet burials.
import { eq } from "drizzle-orm";
import { z } from "zod";
import { adrs, tasks } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principals/types";
import { closeFocusWindow } from "../relay/focus";
import { requireStatus, requireSteward } from "./guards";
import { textField } from "./text";
import { lockTask, readTaskView, type TaskView } from "./view";

/**
 * Each part of an ADR must say something a reader can see: at least this many visible characters
 * (zero-width and other invisible characters do not count). Three lets a terse "n/a" or "Dup" stand
 * and refuses a blank, a lone dot, or an ADR made of zero-width spaces.
 */
export const MIN_ADR_VISIBLE = 3;

const adrField = (what: string, max: number) => textField(max, `the ADR needs its ${what} (at least ${MIN_ADR_VISIBLE} visible characters)`, MIN_ADR_VISIBLE);

export const adrInput = z.strictObject({
  title: adrField("title", 200),
  context: adrField("context", 20_000),
  decision: adrField("decision", 20_000),
  consequences: adrField("consequences", 20_000),
});

export const cancelTaskInput = z.strictObject({ adr: adrInput });
export type CancelTaskInput = z.infer<typeof cancelTaskInput>;

export async function cancelTask(db: Db, caller: Principal, taskId: string, input: CancelTaskInput, clock: Clock): Promise<TaskView> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const task = await lockTask(tx, taskId);
    requireSteward(task, caller, "cancel it");
    requireStatus(task, ["ready", "in_progress", "review"], "cancel");
    const [adr] = await tx
      .insert(adrs)
      .values({ taskId: task.id, ...input.adr, authorId: caller.id, createdAt: now })
      .returning({ id: adrs.id });
    // The owner stays on record (who was working it); the lease ends with the task.
    await tx.update(tasks).set({ status: "cancelled", adrId: adr.id, leaseExpiresAt: null, offeredTo: null, updatedAt: now }).where(eq(tasks.id, task.id));
    await appendEvent(tx, {
      kind: "TaskCancelled",
      actor: caller.id,
      taskId: task.id,
      t: now,
      data: { number: task.number, from: task.status, adrId: adr.id, adrTitle: input.adr.title, ownerId: task.ownerId },
    });
    if (task.status === "in_progress" && task.ownerId) await closeFocusWindow(tx, task.ownerId, now);
    return readTaskView(tx, task.id);
  });
}

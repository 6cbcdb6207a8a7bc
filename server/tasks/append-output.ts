// Appends output items as they are produced, so a replacement resumes where the last owner stopped.
import { eq } from "drizzle-orm";
import { z } from "zod";
import { taskOutputs, tasks } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principals/types";
import { fenceField, requireOwnerWrite } from "./guards";
import { storableJson } from "./text";
import { lockTask, readTaskView, type TaskView } from "./view";

const MAX_ITEM_BYTES = 64 * 1024;
const MAX_ITEMS_PER_CALL = 100;

/** Any JSON value but null (a stored item is a value; null would read as "nothing written"). */
const outputItem = z
  .json()
  .refine((item) => item !== null, "an output item may not be null")
  .refine((item) => Buffer.byteLength(JSON.stringify(item)) <= MAX_ITEM_BYTES, `an output item may hold at most ${MAX_ITEM_BYTES} bytes`)
  .refine(storableJson, "an output item may not contain NUL characters");

export const appendOutputInput = z.strictObject({
  fence: fenceField,
  items: z.array(outputItem).min(1, "send at least one item").max(MAX_ITEMS_PER_CALL),
});
export type AppendOutputInput = z.infer<typeof appendOutputInput>;

export async function appendOutput(db: Db, caller: Principal, taskId: string, input: AppendOutputInput, clock: Clock): Promise<TaskView> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const task = await lockTask(tx, taskId);
    requireOwnerWrite(task, caller, input.fence, "append output");
    const from = task.outputCount + 1;
    // seq is the primary key with the task: the row lock above makes it gap-free, the key makes it unique.
    await tx.insert(taskOutputs).values(input.items.map((item, i) => ({ taskId: task.id, seq: from + i, item, fence: task.fence, authorId: caller.id, createdAt: now })));
    await tx
      .update(tasks)
      .set({ outputCount: task.outputCount + input.items.length, updatedAt: now })
      .where(eq(tasks.id, task.id));
    await appendEvent(tx, {
      kind: "OutputAppended",
      actor: caller.id,
      taskId: task.id,
      t: now,
      data: { fence: task.fence, from, count: input.items.length, items: input.items },
    });
    return readTaskView(tx, task.id);
  });
}

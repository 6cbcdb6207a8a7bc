// Appends output items as they are produced, so a replacement resumes where the last owner stopped.
import { z } from "zod";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import type { EventPayloads } from "../journal/payloads";
import type { Principal } from "../principals/types";
import { pipelinedTransaction } from "../raw-sql";
import { fenceField, requireOwnerWrite } from "./guards";
import { lockTaskForOwner, viewAfter } from "./owner-lock";
import { storableJson } from "./text";
import type { TaskView } from "./view";

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

/** Two round trips: the task's lock and the guards' facts with BEGIN; the items, the count and OutputAppended with COMMIT. */
export async function appendOutput(db: Db, caller: Principal, taskId: string, input: AppendOutputInput, clock: Clock): Promise<TaskView> {
  const now = clock.now();
  const t = now.toISOString();
  return pipelinedTransaction(db, async ({ sql, commitWith }) => {
    const locked = await lockTaskForOwner(sql, taskId, caller.id);
    const { task } = locked;
    requireOwnerWrite(task, caller, input.fence, "append output");
    const from = task.outputCount + 1;
    const outputCount = task.outputCount + input.items.length;
    const data: EventPayloads["OutputAppended"] = { fence: task.fence, from, count: input.items.length, items: input.items };
    // seq is the primary key with the task: the row lock makes it gap-free, the key makes it unique.
    await commitWith(sql`
      with items as (
        select item, ordinality from jsonb_array_elements(${JSON.stringify(input.items)}::jsonb) with ordinality as i(item, ordinality)
      ), stored as (
        insert into task_outputs (task_id, seq, item, fence, author_id, created_at)
        select ${task.id}::uuid, ${from}::int + ordinality::int - 1, item, ${task.fence}::bigint, ${caller.id}::uuid, ${t}::timestamptz from items
      ), counted as (
        update tasks set output_count = ${outputCount}::int, updated_at = ${t}::timestamptz where id = ${task.id}::uuid
      )
      insert into events (kind, actor, task_id, t, data)
      values ('OutputAppended', ${caller.id}::uuid, ${task.id}::uuid, ${t}::timestamptz, ${JSON.stringify(data)}::jsonb)`);
    return viewAfter(locked, { outputCount, updatedAt: now });
  });
}

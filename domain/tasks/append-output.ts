// Appends output items as they are produced, so a replacement resumes where the last owner stopped.
import { z } from "zod";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import type { EventPayloads } from "../journal/payloads";
import type { Principal } from "../principal";
import { fail } from "../errors";
import { type RawSql, pipelinedTransaction } from "../raw-sql";
import { fenceField, requireOwnerWrite } from "./guards";
import { type LockedTask, lockTaskForOwner, viewAfter } from "./owner-lock";
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
  /**
   * Where the first item goes (1-based). With it a write sent again after an unanswered one is safe:
   * the items already stored there, if equal, are not stored twice, and any other position is refused.
   */
  from: z.number().int().min(1).optional(),
  items: z.array(outputItem).min(1, "send at least one item").max(MAX_ITEMS_PER_CALL),
});
export type AppendOutputInput = z.infer<typeof appendOutputInput>;

/**
 * Two round trips: the task's lock and the guards' facts with BEGIN; the items, the count and OutputAppended
 * with COMMIT. A write that names its position and finds items there takes one more, to compare them.
 */
export async function appendOutput(db: Db, caller: Principal, taskId: string, input: AppendOutputInput, clock: Clock): Promise<TaskView> {
  const now = clock.now();
  const t = now.toISOString();
  return pipelinedTransaction(db, async ({ sql, commitWith }) => {
    const locked = await lockTaskForOwner(sql, taskId, caller.id);
    const { task } = locked;
    requireOwnerWrite(task, caller, input.fence, "append output");
    const items = input.items.slice(await storedAlready(sql, locked, input));
    // All of them were stored by the write this one repeats: nothing changes, so no event.
    if (items.length === 0) return viewAfter(locked, {});
    const from = task.outputCount + 1;
    const outputCount = task.outputCount + items.length;
    const data: EventPayloads["OutputAppended"] = { fence: task.fence, from, count: items.length, items };
    // seq is the primary key with the task: the row lock makes it gap-free, the key makes it unique.
    await commitWith(sql`
      with items as (
        select item, ordinality from jsonb_array_elements(${JSON.stringify(items)}::jsonb) with ordinality as i(item, ordinality)
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

/**
 * How many of the leading items are stored already at `from`, equal (JSON-equal, as jsonb compares):
 * a write repeated after no answer came. Without `from`, or at the end, none. Any other position
 * (a gap, or different items there) is refused, so a writer never appends out of place.
 */
async function storedAlready(sql: RawSql, { task }: LockedTask, input: AppendOutputInput): Promise<number> {
  if (input.from === undefined || input.from === task.outputCount + 1) return 0;
  const overlap = Math.min(input.items.length, task.outputCount - input.from + 1);
  if (overlap > 0) {
    const [{ same }] = await sql<{ same: number }[]>`
      select count(*)::int as same
      from jsonb_array_elements(${JSON.stringify(input.items.slice(0, overlap))}::jsonb) with ordinality as e(item, n)
      join task_outputs o on o.task_id = ${task.id}::uuid and o.seq = ${input.from}::int + e.n::int - 1 and o.item = e.item`;
    if (same === overlap) return overlap;
  }
  const why = overlap > 0 ? `different items are stored from item ${input.from}` : `the next item is ${task.outputCount + 1}`;
  throw fail.conflict("task", "output_conflict", `cannot append output from item ${input.from} to task #${task.number}: ${why}`, {
    outputCount: task.outputCount,
  });
}

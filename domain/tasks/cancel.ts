// Cancels a task only with an ADR (title, context, decision, consequences): no quiet burials.
import { eq } from "drizzle-orm";
import { z } from "zod";
import { adrs, tasks } from "../../db/schema";
import type { Db, Tx } from "../../db/client";
import type { Clock } from "../clock";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { getSystemPrincipal } from "../principals/create-principal";
import { closeFocusWindow } from "../rooms/focus";
import { postMessage } from "../rooms/post-message";
import { DEFAULT_ROOM } from "../rooms/rooms";
import { requireSteward } from "./guards";
import { requireMove } from "./moves";
import { textField } from "./text";
import { lockTask, readTaskView, type TaskRow, type TaskView } from "./view";
import { quoted } from "../quoted-text";

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
  const { view, workedOn } = await db.transaction(async (tx) => {
    const { workedOn } = await cancelLockedTask(tx, caller, await lockTask(tx, taskId), input, now);
    return { view: await readTaskView(tx, taskId), workedOn };
  });
  if (workedOn) await tellHolder(db, caller, view, workedOn, input.adr.title, clock);
  return view;
}

/**
 * Cancels a task the caller locked, with its ADR, in the caller's transaction. `workedOn`: the agent that
 * held it (not the caller), whom `tellHolder` tells once the transaction commits.
 */
export async function cancelLockedTask(tx: Tx, caller: Principal, task: TaskRow, input: CancelTaskInput, now: Date) {
  requireSteward(task, caller, "cancel it");
  requireMove(task, "cancel");
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
  const workedOn = task.status === "in_progress" && task.ownerId && task.ownerId !== caller.id ? { ownerId: task.ownerId, fence: task.fence } : null;
  return { workedOn };
}

/**
 * The agent working the task hears it was cancelled, so it stops rather than finds out at its next
 * refused write. Sent after the commit (a notice never announces what could roll back); a failed
 * notice leaves the cancel standing: the journal holds TaskCancelled, and the next write is refused.
 */
async function tellHolder(db: Db, caller: Principal, task: TaskView, workedOn: { ownerId: string; fence: number }, adrTitle: string, clock: Clock): Promise<void> {
  try {
    const system = await getSystemPrincipal(db);
    await postMessage(
      db,
      system,
      DEFAULT_ROOM,
      {
        body: `Task #${task.number} ${quoted(task.title)} was cancelled by ${caller.name} (ADR ${quoted(adrTitle)}): stop working on it. Your writes with fence ${workedOn.fence} will be refused.`,
        performative: "INFORM",
        to: workedOn.ownerId,
        taskId: task.id,
      },
      clock,
    );
  } catch (error) {
    console.warn(`[cancel] could not tell the holder of task #${task.number}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

// Focus windows: while an agent works a claimed task, room messages wait in its digest.
import { and, asc, eq, isNull, lte, ne, or, sql } from "drizzle-orm";
import { focusWindows, tasks } from "../../db/schema";
import type { Db, Executor } from "../../db/client";
import type { Clock } from "../clock";
import { appendEvent } from "../journal/append";
import { flushDigest, type FocusWindow } from "./digest";

export type { FocusWindow };

async function lockOpenWindow(tx: Executor, agentId: string): Promise<FocusWindow | undefined> {
  const [row] = await tx
    .select()
    .from(focusWindows)
    .where(and(eq(focusWindows.agentId, agentId), isNull(focusWindows.closedAt)))
    .for("update");
  return row;
}

/**
 * Called by the board, in its transaction, when an agent goes back to work on a task it holds (a rejected
 * task's rework, already back in progress). Its window follows as a claim's does: quorum_start_work
 * (db/functions/), where the rule lives, opens it or moves it to this task with its digest kept, and journals
 * FocusWindowOpened; only agents focus, so it is told the holder's kind from the roster. One statement.
 */
export async function openFocusWindow(tx: Executor, agentId: string, taskId: string, now: Date): Promise<void> {
  await tx.execute(sql`
    select from quorum_start_work(array[${taskId}::uuid], array[${agentId}::uuid], array[(select kind from principals where id = ${agentId}::uuid)],
      array[${now.toISOString()}::timestamptz], null, 'rework')`);
}

/**
 * Called by the board, in the same transaction, when that agent's task changes status (submit,
 * expiry, cancel…): the digest is delivered as one batch (DigestFlushed) and the window closes.
 */
export async function closeFocusWindow(tx: Executor, agentId: string, now: Date): Promise<void> {
  const open = await lockOpenWindow(tx, agentId);
  if (!open) return;
  await closeWindow(tx, open, now, "task_changed");
}

async function closeWindow(tx: Executor, window: FocusWindow, now: Date, reason: string): Promise<void> {
  const flushed = await flushDigest(tx, window, now, reason);
  // `now` was read when the request began; a claim on another instance may have opened this window with a
  // later reading while this request waited for its locks. A window never closes before it opened.
  await tx
    .update(focusWindows)
    .set({ closedAt: sql`greatest(${now.toISOString()}::timestamptz, ${focusWindows.openedAt})` })
    .where(eq(focusWindows.id, window.id));
  await appendEvent(tx, {
    kind: "FocusWindowClosed",
    actor: window.agentId,
    taskId: window.taskId,
    t: now,
    data: { agentId: window.agentId, taskId: window.taskId, reason, delivered: flushed.messageIds.length, dropped: flushed.dropped },
  });
}

export async function openWindowOf(db: Executor, agentId: string): Promise<FocusWindow | undefined> {
  const [row] = await db
    .select()
    .from(focusWindows)
    .where(and(eq(focusWindows.agentId, agentId), isNull(focusWindows.closedAt)));
  return row;
}

/**
 * The relay's sweep (domain/sweepers/schedule.ts runs it): a window is over when its task is no
 * longer in progress under that agent, or its lease ran out before the board's lease sweeper noticed.
 * The board closes windows on every status change in the same transaction, so this is the safety
 * net DESIGN §5 asks for.
 * Runs under an advisory lock so that with many app instances one sweeps at a time; returns
 * how many windows it closed.
 */
export async function sweepFocusWindows(db: Db, clock: Clock): Promise<number> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [{ locked }] = await tx.execute<{ locked: boolean }>(sql`select pg_try_advisory_xact_lock(hashtext('quorum:focus-sweep')) as locked`);
    if (!locked) return 0;
    const over = await tx
      .select({ window: focusWindows })
      .from(focusWindows)
      .leftJoin(tasks, eq(tasks.id, focusWindows.taskId))
      .where(
        and(
          isNull(focusWindows.closedAt),
          or(isNull(tasks.id), ne(tasks.status, "in_progress"), sql`${tasks.ownerId} is distinct from ${focusWindows.agentId}`, lte(tasks.leaseExpiresAt, now)),
        ),
      )
      .orderBy(asc(focusWindows.id))
      .for("update", { of: focusWindows, skipLocked: true });
    for (const { window } of over) await closeWindow(tx, window, now, "window_over");
    return over.length;
  });
}

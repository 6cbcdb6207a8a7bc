// A task's A2A snapshots as they change, fed by the journal: the process's announcer (domain/journal/listen.ts)
// tells of each committed event, and an event about the task (or a gap, after which anything may have changed)
// makes the task be read again. No loop of its own reads the database: it waits for the announcer.
// A stream holds one of its principal's stream slots, as /api/stream does (429 too_many_streams beyond).
import type { Task, TaskState } from "@a2a-js/sdk";
import type { ServerContext } from "../../domain/context";
import type { Principal } from "../../domain/principal";
import { takeSlot } from "../../domain/journal/stream";
import { readA2ATask, type A2ATaskOptions } from "./task";

export interface FollowOptions extends A2ATaskOptions {
  signal: AbortSignal;
  /** Ends the stream after the snapshot whose state passes. */
  until: (state: TaskState) => boolean;
}

/** What tells one snapshot from the next: the state and the words of its status. */
const fingerprint = (task: Task) => `${task.status?.state}\u0000${JSON.stringify(task.status?.message?.parts)}\u0000${task.artifacts.length}`;

/**
 * The task now, then each time it changes, until `until` holds or the signal aborts. Subscribed before the
 * first read, so a change committed meanwhile is not missed.
 */
export async function* followTask(ctx: Pick<ServerContext, "db" | "subscribe">, caller: Principal, taskId: string, options: FollowOptions): AsyncGenerator<Task, void, undefined> {
  let stale = true;
  let wake = () => {};
  const nudge = () => {
    stale = true;
    wake();
  };
  const release = takeSlot(caller.id, nudge);
  const abort = () => wake();
  options.signal.addEventListener("abort", abort);
  let unsubscribe = () => {};
  try {
    unsubscribe = await ctx.subscribe((notice) => notice.taskId === taskId && nudge(), nudge);
    let last: string | null = null;
    while (!options.signal.aborted) {
      if (!stale) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          if (stale || options.signal.aborted) resolve();
        });
        continue;
      }
      stale = false;
      const task = await readA2ATask(ctx.db, caller, taskId, options);
      if (fingerprint(task) !== last) {
        last = fingerprint(task);
        yield task;
      }
      if (task.status && options.until(task.status.state)) return;
    }
  } finally {
    options.signal.removeEventListener("abort", abort);
    unsubscribe();
    release();
  }
}

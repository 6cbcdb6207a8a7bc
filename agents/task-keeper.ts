// Keeps a run's task with it: the lease renewed with the run's fence at every turn boundary and, between
// boundaries, every quarter lease (a tool or a model call may take longer than the lease), and each tool result
// stored on the task as an output item, so that whoever holds the task next starts from the stored work.
// A renewal refused (the lease was lost: swept, reassigned, the task moved on) ends the run at its next boundary.
import type { Db } from "../db/client";
import type { Clock } from "../domain/clock";
import { QuorumError } from "../domain/errors";
import type { Principal } from "../domain/principal";
import type { ToolReturnedData } from "../domain/runs/run-events";
import { appendOutput } from "../domain/tasks/append-output";
import { heartbeat } from "../domain/tasks/heartbeat";
import { leaseSecondsOf } from "../domain/tasks/lease";
import type { TaskView } from "../domain/tasks/view";
import type { RunKeeper } from "./loop";

/** An observation stored on the task is cut to this many characters of JSON (the journal keeps it whole). */
export const STORED_OBSERVATION_CHARS = 8_000;

/** What a tool result becomes on the task: which run, turn and call, and what it returned. */
export type StoredToolResult = {
  run: string;
  turn: number;
  tool: string;
  callId: string;
  isError: boolean;
  observation: string;
};

export interface TaskKeeper extends RunKeeper {
  /** Why the lease was lost, once it was. */
  lost(): string | null;
  /** Stops the renewals between boundaries (call it when the run's drive returns or throws). */
  close(): void;
}

export interface TaskKeeperOptions {
  db: Db;
  agent: Principal;
  task: Pick<TaskView, "id" | "number" | "fence" | "leaseMinutes" | "outputCount">;
  clock: Clock;
}

function stored(runId: string, turn: number, returned: ToolReturnedData): StoredToolResult {
  const json = JSON.stringify(returned.observation.is_error ? { reason: returned.observation.reason } : returned.observation.result) ?? "null";
  return {
    run: runId,
    turn,
    tool: returned.tool,
    callId: returned.callId,
    isError: returned.observation.is_error,
    observation: json.length > STORED_OBSERVATION_CHARS ? `${json.slice(0, STORED_OBSERVATION_CHARS)} … (${json.length} characters)` : json,
  };
}

export function taskKeeper({ db, agent, task, clock }: TaskKeeperOptions): TaskKeeper {
  let lostReason: string | null = null;
  let nextItem = task.outputCount + 1;
  /** A refusal means the task is no longer ours; anything else (the database blinked) is tried again later. */
  const guard = async (work: () => Promise<void>) => {
    if (lostReason) return;
    try {
      await work();
    } catch (error) {
      if (!(error instanceof QuorumError)) return;
      lostReason = `lost its lease on task #${task.number}: ${error.message}`;
      clearInterval(timer);
    }
  };
  const renew = () => guard(async () => void (await heartbeat(db, agent, task.id, { fence: task.fence }, clock)));
  const timer = setInterval(() => void renew(), (leaseSecondsOf(task) * 1_000) / 4);
  timer.unref();
  // At once too: a run carried on after a crash may start inside a model call, far from its next boundary.
  void renew();
  return {
    lost: () => lostReason,
    close: () => clearInterval(timer),
    atBoundary: async () => {
      await renew();
      return lostReason;
    },
    toolReturned: (state, returned) =>
      guard(async () => {
        // Written at a known position: a write repeated after an unanswered one is stored once.
        const view = await appendOutput(db, agent, task.id, { fence: task.fence, from: nextItem, items: [stored(state.runId!, state.turn, returned)] }, clock);
        nextItem = view.outputCount + 1;
      }),
  };
}

// The run fence: each step of a run is one transaction under the run's lock that first checks nobody
// else wrote since this process last read, so a second resumer (or a worker thought dead) fails
// instead of forking the run.
import { and, eq, inArray, max, notInArray, sql } from "drizzle-orm";
import { events } from "../../db/schema";
import type { Db, Tx } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { appendEvent, type JournalEvent } from "../journal/append";
import type { EventPayloads } from "../journal/payloads";
import { foldRun, type RunState } from "./resume-point";
import { OPERATOR_KINDS } from "./run-events";

/** The kinds a run writes about itself (operator stops are written by domain/runs/request-stop.ts). */
export type RunEventKind =
  | "RunStarted"
  | "ModelCalled"
  | "ModelResponded"
  | "BudgetDebited"
  | "ModelFailed"
  | "ModelRetried"
  | "ToolDispatched"
  | "ToolRetried"
  | "ToolReturned"
  | "AgentFinished"
  | "BudgetExhausted"
  | "RunStopped";

/** One event a run step writes; actor, run, task and time come from the run and the clock. */
export type RunEventDraft = {
  [K in RunEventKind]: {
    kind: K;
    data: EventPayloads[K];
    /** Defaults to the state's current turn. */
    turn?: number;
  };
}[RunEventKind];

/** Serialises every writer of one run: its steps and operator stops. */
export async function lockRun(tx: Tx, runId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${runId}, 0))`);
}

async function requireUnmoved(tx: Tx, state: RunState): Promise<void> {
  await lockRun(tx, state.runId!);
  const [row] = await tx
    .select({ last: max(events.id) })
    .from(events)
    .where(and(eq(events.runId, state.runId!), notInArray(events.kind, [...OPERATOR_KINDS])));
  const last = row?.last ?? null;
  if (last !== state.lastEventId) {
    throw fail.conflict(
      "run",
      state.lastEventId === null ? "run_exists" : "run_moved_on",
      state.lastEventId === null
        ? `run ${state.runId} already exists`
        : `run ${state.runId} was advanced by another process (its journal ends at event ${last}, this process read up to ${state.lastEventId})`,
    );
  }
}

/**
 * Appends one step of a run, fenced, in one transaction. `fill` runs inside it (after the fence),
 * so what it reads — the turn's mail — is journalled in the same commit or not at all.
 */
export async function appendRunStep(db: Db, state: RunState, clock: Clock, fill: (tx: Tx) => Promise<RunEventDraft[]>): Promise<RunState> {
  const rows = await db.transaction(async (tx) => {
    await requireUnmoved(tx, state);
    const written: JournalEvent[] = [];
    for (const draft of await fill(tx)) {
      const { kind, data, turn } = draft;
      written.push(await appendEvent<RunEventKind>(tx, { kind, data, actor: state.agentId, runId: state.runId, taskId: state.taskId, turn: turn ?? state.turn, t: clock.now() }));
    }
    return written;
  });
  return foldRun(rows, state);
}

/** A stop is pending while the newest StopRequested is newer than the newest RunStopped. */
export async function stopPending(db: Db, runId: string): Promise<boolean> {
  const [row] = await db
    .select({
      requested: sql<number>`coalesce(max(${events.id}) filter (where ${events.kind} = 'StopRequested'), 0)`.mapWith(Number),
      honoured: sql<number>`coalesce(max(${events.id}) filter (where ${events.kind} = 'RunStopped'), 0)`.mapWith(Number),
    })
    .from(events)
    .where(and(eq(events.runId, runId), inArray(events.kind, ["StopRequested", "RunStopped"])));
  return (row?.requested ?? 0) > (row?.honoured ?? 0);
}

// Claims the best ready task for the caller in one autocommitted statement with FOR UPDATE SKIP LOCKED.
import { z } from "zod";
import { type Db, hotLaneOf } from "../../db/client";
import type { Clock } from "../clock";
import type { Principal } from "../principal";
import { batchedCalls } from "../batched-calls";
import type { RawSql } from "../raw-sql";
import { type ClaimCall, type ClaimSearch, claimTogether } from "./claim-together";
import { requireWorker } from "./guards";
import type { TaskView } from "./view";

/** claim-next takes no arguments: the server picks the task. */
export const claimNextTaskInput = z.strictObject({});

/** Narrows claim-next to the subtasks of one parent, and a flight's claim to what it does not skip (claim-together.ts). */
export type ClaimScope = ClaimSearch;

/**
 * The best task is one the lease sweeper offered to the caller, else the oldest ready one; only ever one
 * the caller may claim (quorum_may_claim: never one it approves or one without acceptance criteria). The
 * order is db/functions/quorum_claim_next_tasks.sql's, the one search every next-task claim makes (a
 * flight's too): it walks a partial index on ready tasks and skips rows another claimer has locked, so
 * concurrent workers never wait on each other and never get the same task.
 *
 * The search and the write (quorum_start_work: the claim, TaskClaimed, the focus window, FocusWindowOpened)
 * are one autocommitted statement, so a claim costs one round trip and is atomic as a transaction; what
 * that bought is in bench/results/notebook.md.
 */
export async function claimNextTask(db: Db, caller: Principal, clock: Clock, scope: ClaimScope = {}): Promise<TaskView | null> {
  requireWorker(caller);
  const sql = hotLaneOf(db, "claims");
  const now = clock.now().toISOString();
  // A goal's few coders rarely queue: a scoped claim goes alone.
  if (scope.parentId || scope.flightId || scope.via) return claimAlone(sql, { caller, now }, scope);
  return claimInTurn(sql, "", { caller, now });
}

/**
 * Unscoped claims from one process: two go at once; a claim that finds both in flight waits, and when one
 * finishes, those waiting go together in one statement (claim-together.ts) if they are three or more, else
 * each alone. A batch holds each caller once.
 *
 * A batch costs little more than one claim, which pays off only when the database is busy; with few
 * claimers waiting just adds latency, and three or more waiting is the sign of a busy database. The
 * settings tried are in bench/results/notebook.md.
 */
const claimInTurn = batchedCalls<ClaimCall, TaskView | null>({
  maxBatch: 32,
  slots: 2,
  minBatch: 3,
  alone: (sql, _key, call) => claimAlone(sql, call, {}),
  together: (sql, _key, calls) => claimTogether(sql, calls),
  joins: (call, batch) => batch.every((other) => other.caller.id !== call.caller.id),
});

async function claimAlone(sql: RawSql, call: ClaimCall, scope: ClaimScope): Promise<TaskView | null> {
  // Alone, the caller is named to the search, which then never finds a task it approves: no retry to answer.
  const [outcome] = await claimTogether(sql, [call], scope);
  return outcome ?? null;
}

// Claims the best ready task for the caller in one autocommitted statement with FOR UPDATE SKIP LOCKED.
import { z } from "zod";
import { type Db, hotLaneOf } from "../../db/client";
import type { Clock } from "../clock";
import type { Principal } from "../principal";
import { batchedCalls } from "../batched-calls";
import type { RawSql } from "../raw-sql";
import { CLAIMED_COLUMNS, CLAIMED_TASK, claimedView } from "./claimed";
import { type ClaimCall, claimTogether } from "./claim-together";
import { requireWorker } from "./guards";
import { globalLeaseSeconds } from "./lease";
import type { TaskView } from "./view";

/** claim-next takes no arguments: the server picks the task. */
export const claimNextTaskInput = z.strictObject({});

/** Narrows claim-next to the subtasks of one parent (a team works only on its own goal's tasks). */
export interface ClaimScope {
  parentId?: string;
}

/**
 * The best task is one the lease sweeper offered to the caller, else the oldest ready one; only ever one
 * the caller may claim (quorum_may_claim: never one it approves or one without acceptance criteria). Each
 * candidate subquery walks a partial index on ready tasks and skips rows another claimer has locked, so
 * concurrent workers never wait on each other and never get the same task. COALESCE evaluates its second
 * subquery only when the first finds nothing.
 *
 * The search and the write (quorum_start_work: the claim, TaskClaimed, the focus window, FocusWindowOpened)
 * are one autocommitted prepared statement, so a claim costs one round trip and is atomic as a transaction;
 * what that bought is in bench/results/notebook.md.
 */
export async function claimNextTask(db: Db, caller: Principal, clock: Clock, scope: ClaimScope = {}): Promise<TaskView | null> {
  requireWorker(caller);
  const sql = hotLaneOf(db, "claims");
  const now = clock.now().toISOString();
  // A goal's few coders rarely queue: a scoped claim goes alone.
  if (scope.parentId) return claimAlone(sql, { caller, now }, scope.parentId);
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
  alone: (sql, _key, call) => claimAlone(sql, call, null),
  together: (sql, _key, calls) => claimTogether(sql, calls),
  joins: (call, batch) => batch.every((other) => other.caller.id !== call.caller.id),
});

async function claimAlone(sql: RawSql, { caller, now }: ClaimCall, parentId: string | null): Promise<TaskView | null> {
  const me = caller.id;
  // The scope is a fragment, not `($parent is null or parent_id = $parent)`: scoped and unscoped claims are
  // then two prepared statements, each with a plan that fits it.
  const inScope = parentId ? sql`and candidate.parent_id = ${parentId}::uuid` : sql``;
  // Which task the caller may take is quorum_may_claim's to say, written so that PostgreSQL's generic plan
  // still walks tasks_ready_idx in number order and stops at the first row it can lock. A bare
  // `approver_id <> $me` here was estimated at 1 − 1/n_distinct, so on a board with one approver the plan
  // expected no match and scanned and sorted every ready task (bench/results/notebook.md).
  //
  // One statement: the task found and locked, then written as every claim is (quorum_start_work: the claim,
  // TaskClaimed, the window, FocusWindowOpened), with the names its view shows.
  const [row] = await sql`
    select ${sql.unsafe(CLAIMED_COLUMNS)}
    from quorum_start_work(array[coalesce(
        (select candidate.id from tasks candidate
          where candidate.offered_to = ${me}::uuid
            ${inScope}
            and quorum_may_claim(candidate.status, candidate.acceptance_criteria, candidate.approver_id, ${me}::uuid, candidate.waiting_on)
          order by candidate.number limit 1 for update skip locked),
        (select candidate.id from tasks candidate
          where quorum_may_claim(candidate.status, candidate.acceptance_criteria, candidate.approver_id, ${me}::uuid, candidate.waiting_on)
            ${inScope}
          order by candidate.number limit 1 for update skip locked))],
      array[${me}::uuid], array[${caller.kind}], array[${now}::timestamptz], ${globalLeaseSeconds()}::int, 'claim-next') w
      ${sql.unsafe(CLAIMED_TASK)}`;
  if (!row) return null;
  return claimedView(row, caller);
}

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
 * The search, the claim, TaskClaimed, the focus window (opened, or moved from the agent's previous task)
 * and FocusWindowOpened are one autocommitted statement (the search, then quorum_start_work, which writes
 * every claim): one round trip, one prepared statement, atomic as a transaction. `npm run bench --
 * --only=claims` before (bench/results/2026-11-29.md, embedded Postgres, 2 cores): 218 claims/s at 1
 * worker (0.115× a bare `UPDATE … WHERE id = (SELECT … FOR UPDATE SKIP LOCKED LIMIT 1)` loop), 415/s at 16
 * (0.045×), a claim being six drizzle statements (BEGIN, UPDATE, TaskClaimed, the window,
 * FocusWindowOpened, COMMIT), each sent unnamed (Describe, then Bind: two trips). After
 * (bench/results/2026-11-30.md, medians of three --quick runs against the same-run anchor): 1 worker
 * 0.169× → 0.415×, 4 workers 0.201× → 0.270×, 16 workers 0.077× → 0.124×; claim → submit at 8 workers
 * 0.262× → 0.427× graphile-worker. Since writers stopped NOTIFYing (migration 0023), on a quiet machine: 16
 * workers 0.245×, claim → submit 0.774×. Keeping the approver test out of the planner's estimate (below)
 * took the full bench's 2,000-task board from 720 to 1,205 claims/s at 16 workers (0.142× → 0.242×) and
 * from 0.24× to 0.38× at one; on the quick bench's 200 tasks it is within the noise (0.26×), as is leaving
 * TaskClaimed and FocusWindowOpened out of the search index (migration 0024). The rest is Postgres CPU: a
 * claim costs ~1.2 ms of it (the task's indexes, its guard trigger and owner foreign key, two journal
 * events, the window row) against ~0.25 ms for the bare loop's one-table UPDATE.
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
 * Why these numbers (`npm run bench -- --only=claims`, embedded PostgreSQL 18 on 2 cores, 2026-12-01): on
 * one connection a batch of 2 costs 1.4 ms, of 16 2.8 ms, where one claim alone costs 0.9–1.1 ms. At 16
 * workers the full bench went from 1,246–1,321 to 1,777–1,938 claims/s (0.24–0.31× → 0.42–0.46× the bare
 * loop); its quick form, 200 claims a repetition, stayed at 0.31× while the claims ran on the pool. One
 * slot, or batches of two, took 4 workers from 0.39–0.41× to 0.25–0.27×: with few claimers the database is
 * not busy, and waiting only adds latency; three or more waiting is when it is busy.
 * (bench/results/2026-12-01.md, "In the evening", has every setting tried.) The statements run on the
 * database's claims lane, two connections of their own (db/client.ts), which took the quick form to 0.49–0.59×.
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
  // Which task the caller may take is quorum_may_claim's to say (the rule, quorum_claim_refusal, put so that
  // the planner keeps this plan). The approver's test once stood here as `approver_id <> $me`: after five
  // calls PostgreSQL settles on a generic plan, which estimates `<> $1` as 1 − 1/n_distinct, so a board with
  // one approver (n_distinct 1) looked as if no task could match, and the plan sequentially scanned and
  // sorted every ready task for each claim (2,471 ready: 2.5 ms of a 2.8 ms claim; auto_explain with
  // plan_cache_mode = force_generic_plan, 2026-11-30). Then `not in (select $me)`, estimated at one half,
  // fixed it; now the test sits inside the rule, whose estimate quorum_may_claim keeps at one half, and the
  // generic plan walks tasks_ready_idx in number order and stops at the first row it can lock (EXPLAIN under
  // force_generic_plan on boards of 200 ready tasks and of 10,000 with 2,500 ready, one approver, 2026-12-01).
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

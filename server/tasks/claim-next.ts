// Claims the best ready task for the caller in one autocommitted statement with FOR UPDATE SKIP LOCKED.
import { z } from "zod";
import { type Db, hotLaneOf } from "../../db/client";
import type { Clock } from "../clock";
import type { Principal } from "../principals/types";
import { batchedCalls } from "../batched-calls";
import type { RawSql } from "../raw-sql";
import { CLAIMED_COLUMNS, type ClaimCall, claimedView, claimTogether } from "./claim-together";
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
 * The best task is one the lease sweeper offered to the caller, else the oldest ready one; never
 * one the caller approves or one without acceptance criteria. Each candidate subquery walks the
 * partial index `tasks_ready_idx` (status = 'ready') and skips rows another claimer has locked, so
 * concurrent workers never wait on each other and never get the same task. COALESCE evaluates its
 * second subquery only when the first finds nothing.
 *
 * The claim, TaskClaimed, the focus window (opened, or moved from the agent's previous task) and
 * FocusWindowOpened are one autocommitted statement (a data-modifying CTE): one round trip, one
 * prepared statement, atomic as a transaction. `npm run bench -- --only=claims` before
 * (bench/results/2026-11-29.md, embedded Postgres, 2 cores): 218 claims/s at 1 worker (0.115× a bare
 * `UPDATE … WHERE id = (SELECT … FOR UPDATE SKIP LOCKED LIMIT 1)` loop), 415/s at 16 (0.045×), a claim
 * being six drizzle statements (BEGIN, UPDATE, TaskClaimed, the window, FocusWindowOpened, COMMIT),
 * each sent unnamed (Describe, then Bind: two trips). After (bench/results/2026-11-30.md, medians of
 * three --quick runs against the same-run anchor): 1 worker 0.169× → 0.415×, 4 workers 0.201× → 0.270×,
 * 16 workers 0.077× → 0.124×; claim → submit at 8 workers 0.262× → 0.427× graphile-worker. Since writers
 * stopped NOTIFYing (migration 0023), on a quiet machine: 16 workers 0.245×, claim → submit 0.774×. The
 * approver test below took the full bench's 2,000-task board from 720 to 1,205 claims/s at 16 workers
 * (0.142× → 0.242×) and from 0.24× to 0.38× at one; on the quick bench's 200 tasks it is within the noise
 * (0.26×), as is leaving TaskClaimed and FocusWindowOpened out of the search index (migration 0024). The rest is Postgres CPU: a
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
  // `approver_id not in (select $me)`, not `approver_id <> $me`: after five calls PostgreSQL settles on a
  // generic plan, which estimates `<> $1` as 1 − 1/n_distinct, so a board with one approver (n_distinct 1)
  // looked as if no task could match, and the plan sequentially scanned and sorted every ready task for
  // each claim (2,471 ready: 2.5 ms of a 2.8 ms claim; auto_explain with plan_cache_mode =
  // force_generic_plan, 2026-11-30). A subquery's test is estimated at one half, so the plan walks
  // tasks_ready_idx in number order and stops at the first row it can lock. (approver_id is never null.)
  //
  // One statement: the claim; the agent's window opened (only when it has none) or moved; one
  // insert for TaskClaimed and FocusWindowOpened; the approver and author joined, not three subqueries.
  // Against the previous shape (two event inserts, a speculative window insert on every claim, the OR scope),
  // 16 workers on a board that grows to 10,000 tasks on PostgreSQL 15 (the machine's server, DATABASE_URL):
  // 460–600 → 860–1,100 claims/s, of which the scope fragment alone gave 560–800. On the bench's embedded
  // PostgreSQL 18 the two shapes are within its noise (0.24–0.27× the bare loop either way, 2026-12-01).
  const [row] = await sql`
    with claimed as (
      update tasks t set status = 'in_progress', owner_id = ${me}::uuid, fence = t.fence + 1,
        lease_expires_at = ${now}::timestamptz + make_interval(secs => coalesce(t.lease_minutes * 60, ${globalLeaseSeconds()}::int)),
        offered_to = null, updated_at = ${now}::timestamptz
      where t.status = 'ready' and t.id = coalesce(
        (select candidate.id from tasks candidate
          where candidate.status = 'ready' and candidate.offered_to = ${me}::uuid
            ${inScope}
            and candidate.approver_id not in (select ${me}::uuid) and candidate.acceptance_criteria ~ '\\S'
          order by candidate.number limit 1 for update skip locked),
        (select candidate.id from tasks candidate
          where candidate.status = 'ready'
            ${inScope}
            and candidate.approver_id not in (select ${me}::uuid) and candidate.acceptance_criteria ~ '\\S'
          order by candidate.number limit 1 for update skip locked))
      returning t.*
    ), opened as (
      -- Only agents focus. An agent with a window open moves it (below) instead of trying an insert that
      -- would conflict; the partial unique index keeps one open window per agent even if two claims race.
      insert into focus_windows (agent_id, task_id, opened_at)
      select ${me}::uuid, claimed.id, ${now}::timestamptz from claimed
      where ${caller.kind === "agent"}::boolean
        and not exists (select from focus_windows where agent_id = ${me}::uuid and closed_at is null)
      on conflict do nothing
      returning task_id
    ), moved as (
      -- An agent with a window open for another task keeps its digest; the window moves to the new task.
      update focus_windows f set task_id = claimed.id
      from claimed, (select id, task_id from focus_windows where agent_id = ${me}::uuid and closed_at is null) open
      where ${caller.kind === "agent"}::boolean and f.id = open.id and open.task_id <> claimed.id
      returning open.task_id as previous
    ), journal as (
      -- One insert for both events; union all keeps the journal's order: TaskClaimed, then FocusWindowOpened.
      insert into events (kind, actor, task_id, t, data)
      select 'TaskClaimed', ${me}::uuid, claimed.id, ${now}::timestamptz,
        jsonb_build_object('number', claimed.number, 'ownerId', ${me}::uuid, 'fence', claimed.fence,
          'leaseExpiresAt', to_char(claimed.lease_expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'outputCount', claimed.output_count, 'via', 'claim-next')
      from claimed
      union all
      select 'FocusWindowOpened', ${me}::uuid, claimed.id, ${now}::timestamptz, jsonb_build_object('agentId', ${me}::uuid, 'taskId', claimed.id)
      from claimed, opened
      union all
      select 'FocusWindowOpened', ${me}::uuid, claimed.id, ${now}::timestamptz,
        jsonb_build_object('agentId', ${me}::uuid, 'taskId', claimed.id, 'previousTaskId', moved.previous)
      from claimed, moved
    )
    select ${sql.unsafe(CLAIMED_COLUMNS)},
      approver.name as "approverName", approver.kind as "approverKind", creator.name as "createdByName"
    from claimed c
      join principals approver on approver.id = c.approver_id
      join principals creator on creator.id = c.created_by`;
  if (!row) return null;
  return claimedView(row, caller);
}

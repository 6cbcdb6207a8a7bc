// Claims the best ready task for the caller in one statement with FOR UPDATE SKIP LOCKED.
import { and, eq, getTableColumns, sql, type AnyColumn } from "drizzle-orm";
import { z } from "zod";
import { principals, tasks } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import type { Principal } from "../principals/types";
import { recordClaim } from "./claim";
import { requireWorker } from "./guards";
import { leaseEndSql } from "./lease";
import { toTaskView, type TaskView } from "./view";

/** claim-next takes no arguments: the server picks the task. */
export const claimNextTaskInput = z.strictObject({});

/**
 * The best task is one the lease sweeper offered to the caller, else the oldest ready one; never
 * one the caller approves or one without acceptance criteria. Each candidate subquery walks the
 * partial index `tasks_ready_idx` (status = 'ready') and skips rows another claimer has locked, so
 * concurrent workers never wait on each other and never get the same task.
 *
 * `npm run bench -- --only=claims` (bench/results/2026-11-29.md, embedded Postgres, 2 cores): claim-next
 * runs 218/s at 1 worker (0.115× a bare `UPDATE … WHERE id = (SELECT … FOR UPDATE SKIP LOCKED LIMIT 1)`
 * loop) and 415/s at 16 (0.045×). The statement is not the cost: a claim is six statements in one
 * transaction (BEGIN, the UPDATE returning the view's names, TaskClaimed, the focus window,
 * FocusWindowOpened, COMMIT) against one autocommitted UPDATE, and about half of its time is the
 * Node side of those round trips. Claims happen once per task, minutes apart; consistency is worth it.
 */
function bestReadyTaskFor(callerId: string, scope: ClaimScope) {
  const candidate = (offeredOnly: boolean) => sql`(
    select candidate.id from tasks candidate
    where candidate.status = 'ready'
      ${offeredOnly ? sql`and candidate.offered_to = ${callerId}` : sql``}
      ${scope.parentId ? sql`and candidate.parent_id = ${scope.parentId}` : sql``}
      and candidate.approver_id <> ${callerId}
      and candidate.acceptance_criteria ~ '\\S'
    order by candidate.number
    limit 1
    for update skip locked)`;
  // COALESCE evaluates its second subquery only when the first finds nothing.
  return sql`coalesce(${candidate(true)}, ${candidate(false)})`;
}

const nameOf = (id: AnyColumn) => sql<string>`(select ${principals.name} from ${principals} where ${principals.id} = ${id})`;
const kindOf = (id: AnyColumn) => sql<Principal["kind"]>`(select ${principals.kind} from ${principals} where ${principals.id} = ${id})`;

/** Narrows claim-next to the subtasks of one parent (a team works only on its own goal's tasks). */
export interface ClaimScope {
  parentId?: string;
}

/** Returns the claimed task, or null when nothing is ready for the caller (HTTP 204). */
export async function claimNextTask(db: Db, caller: Principal, clock: Clock, scope: ClaimScope = {}): Promise<TaskView | null> {
  requireWorker(caller);
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(tasks)
      .set({
        status: "in_progress",
        ownerId: caller.id,
        fence: sql`${tasks.fence} + 1`,
        leaseExpiresAt: leaseEndSql(now),
        offeredTo: null,
        updatedAt: now,
      })
      .where(and(eq(tasks.id, bestReadyTaskFor(caller.id, scope)), eq(tasks.status, "ready")))
      // The view's names come back with the row: one round trip fewer on a hot path.
      .returning({ ...getTableColumns(tasks), approverName: nameOf(tasks.approverId), approverKind: kindOf(tasks.approverId), createdByName: nameOf(tasks.createdBy) });
    if (!claimed) return null;
    const { approverName, approverKind, createdByName, ...task } = claimed;
    await recordClaim(tx, task, caller, "claim-next", now);
    return toTaskView({ task, ownerName: caller.name, ownerKind: caller.kind, approverName, approverKind, createdByName });
  });
}

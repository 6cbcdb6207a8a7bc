// Several callers' claim-next in one statement: each caller matched as it would be alone, each claim
// journalled with its window, claim after claim in the order the callers came.
import { tasks } from "../../db/schema";
import type { Principal } from "../principals/types";
import { type RawSql, rowReader } from "../raw-sql";
import { globalLeaseSeconds } from "./lease";
import { toTaskView, type TaskView } from "./view";

/** One caller's claim-next: who, and at what time. */
export interface ClaimCall {
  caller: Principal;
  now: string;
}

const taskRow = rowReader(tasks);
/** A claimed task's columns, read from the alias `c`, as both claim statements select them. */
export const CLAIMED_COLUMNS = taskRow.columns("c");

/** The view of a claimed row (its task columns, then "approverName", "approverKind", "createdByName"). */
export function claimedView(row: Record<string, unknown>, caller: Principal): TaskView {
  return toTaskView({
    task: taskRow.read(row),
    ownerName: caller.name,
    ownerKind: caller.kind,
    approverName: row.approverName as string,
    approverKind: row.approverKind as Principal["kind"],
    createdByName: row.createdByName as string,
  });
}

/**
 * The unscoped claims of distinct callers (quorum_claim_next_tasks, migration 0031, says how they are
 * matched). Outcome i answers calls[i]: the task it claimed, null when the board had none for it, or
 * undefined when it was matched with a task it approves (it then claims again alone).
 */
export async function claimTogether(sql: RawSql, calls: ClaimCall[]): Promise<(TaskView | null | undefined)[]> {
  const rows = await sql`
    select b.claim_ordinal as "ordinal", b.claim_retry as "retry", ${sql.unsafe(CLAIMED_COLUMNS)},
      b.approver_name as "approverName", b.approver_kind as "approverKind", b.created_by_name as "createdByName"
    from quorum_claim_next_tasks(
      ${calls.map((c) => c.caller.id)}::text[]::uuid[], ${calls.map((c) => c.caller.kind)}::text[],
      ${calls.map((c) => c.now)}::text[]::timestamptz[], ${globalLeaseSeconds()}::int
    ) b left join lateral (select (b.claimed_task).*) c on true
    order by b.claim_ordinal`;
  return rows.map((row) => {
    if (row.retry) return undefined;
    if (row.id === null) return null;
    return claimedView(row, calls[row.ordinal - 1].caller);
  });
}

// Claim-next's one statement, db/functions/quorum_claim_next_tasks.sql, for one caller or several: each caller
// matched as it would be alone, each claim journalled with its window, claim after claim in the order the
// callers came.
import type { Principal } from "../principal";
import type { RawSql } from "../raw-sql";
import { CLAIMED_COLUMNS, CLAIMED_TASK, claimedView } from "./claimed";
import { globalLeaseSeconds } from "./lease";
import type { TaskView } from "./view";

/** One caller's claim-next: who, and at what time. */
export interface ClaimCall {
  caller: Principal;
  now: string;
}

/** Where a search looks, and how its claims are journalled (db/functions/quorum_claim_next_tasks.sql). */
export interface ClaimSearch {
  /** Only this parent's subtasks (a team works only on its own goal's tasks). */
  parentId?: string;
  /** The flight whose goal parentId is: its tasks cooling down after a release, or waiting for a re-plan, are passed over. */
  flightId?: string;
  /** TaskClaimed's via: a flight's coder journals its claims as `claim`, as it always has. */
  via?: "claim" | "claim-next";
}

/**
 * The claims of distinct callers (db/functions/quorum_claim_next_tasks.sql says how they are matched).
 * Outcome i answers calls[i]: the task it claimed, null when the board had none for it, or undefined when
 * it was matched with a task it approves (it then claims again alone; a lone caller never is).
 */
export async function claimTogether(sql: RawSql, calls: ClaimCall[], search: ClaimSearch = {}): Promise<(TaskView | null | undefined)[]> {
  const rows = await sql`
    select w.claim_ordinal as "ordinal", w.claim_retry as "retry", ${sql.unsafe(CLAIMED_COLUMNS)}
    from quorum_claim_next_tasks(
      ${calls.map((c) => c.caller.id)}::text[]::uuid[], ${calls.map((c) => c.caller.kind)}::text[],
      ${calls.map((c) => c.now)}::text[]::timestamptz[], ${globalLeaseSeconds()}::int,
      ${search.parentId ?? null}::uuid, ${search.flightId ?? null}::uuid, ${search.via ?? "claim-next"}
    ) w ${sql.unsafe(CLAIMED_TASK)}
    order by w.claim_ordinal`;
  return rows.map((row) => {
    if (row.retry) return undefined;
    if (row.id === null) return null;
    return claimedView(row, calls[row.ordinal - 1].caller);
  });
}

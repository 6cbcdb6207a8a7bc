// A claim's outcome as every claim path reads it: a row of quorum_start_work (db/functions/quorum_start_work.sql,
// what a claim writes), or of quorum_claim_next_tasks, which hands those rows on, made the task's view.
import { tasks } from "../../db/schema";
import type { Principal } from "../principal";
import { rowReader } from "../raw-sql";
import { toTaskView, type TaskView } from "./view";

const taskRow = rowReader(tasks);

/**
 * The select list of a claim's outcome `w`: its task's columns (expanded as `c` by CLAIMED_TASK), then the
 * names the view shows. Constants, so a statement that reads them stays one prepared statement.
 */
export const CLAIMED_COLUMNS = `${taskRow.columns("c")}, w.approver_name as "approverName", w.approver_kind as "approverKind", w.created_by_name as "createdByName"`;
/** Expands the outcome's task as `c` (null columns when the outcome claimed none). */
export const CLAIMED_TASK = "left join lateral (select (w.claimed_task).*) c on true";

/** The view of a claimed row: the claimer is its owner now. */
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

// The owner's hot writes (heartbeat, output, submit) in two round trips: BEGIN travels with the task's
// row lock and everything the guards and the view need, the write travels with COMMIT (../raw-sql.ts).
import { tasks } from "../../db/schema";
import type { Principal } from "../principal";
import type { RawSql } from "../raw-sql";
import { rowReader } from "../raw-sql";
import { toTaskView, assertTaskId, type TaskRow, type TaskView } from "./view";
import { fail } from "../errors";

const taskRow = rowReader(tasks);
const TASK_COLUMNS = taskRow.columns("t");
type Kind = Principal["kind"];

export interface LockedTask {
  task: TaskRow;
  names: { ownerName: string | null; ownerKind: Kind | null; approverName: string; approverKind: Kind; createdByName: string };
  /** The caller's open focus window (locked too, after the task: the claim's order), when it has one. */
  window: { id: string; taskId: string; empty: boolean } | null;
}

/** Locks the task row (then the caller's open focus window) and reads them, pipelined behind BEGIN. */
export async function lockTaskForOwner(sql: RawSql, taskId: string, callerId: string): Promise<LockedTask> {
  assertTaskId(taskId);
  const locked = sql<Record<string, unknown>[]>`
    select ${sql.unsafe(TASK_COLUMNS)},
      (select name from principals where id = t.owner_id) as "ownerName",
      (select kind from principals where id = t.owner_id) as "ownerKind",
      (select name from principals where id = t.approver_id) as "approverName",
      (select kind from principals where id = t.approver_id) as "approverKind",
      (select name from principals where id = t.created_by) as "createdByName"
    from tasks t where t.id = ${taskId}::uuid for update of t`.execute();
  const window = sql<{ id: string; task_id: string; empty: boolean }[]>`
    select w.id, w.task_id, (w.dropped = 0 and not exists (select 1 from digest_entries d where d.window_id = w.id and d.state = 'queued')) as empty
    from focus_windows w where w.agent_id = ${callerId}::uuid and w.closed_at is null for update of w`.execute();
  const [[row], [open]] = await Promise.all([locked, window]);
  if (!row) throw fail.notFound("task", `no task with id '${taskId}'`);
  return {
    task: taskRow.read(row),
    names: {
      ownerName: row.ownerName as string | null,
      ownerKind: row.ownerKind as Kind | null,
      approverName: row.approverName as string,
      approverKind: row.approverKind as Kind,
      createdByName: row.createdByName as string,
    },
    window: open ? { id: open.id, taskId: open.task_id, empty: open.empty } : null,
  };
}

/** The view after a write, from the locked row and what the write changed (no read back). */
export function viewAfter(locked: LockedTask, changed: Partial<TaskRow>): TaskView {
  return toTaskView({ task: { ...locked.task, ...changed }, ...locked.names });
}

// The task board's state machine (DESIGN §6), declared once. Each action names the statuses it leaves and
// the one it reaches; the actions check their task against this table, and the database's guard refuses any
// other change through db/functions/quorum_task_move_legal.sql, which `npm run db:moves` writes from it.
import type { TaskStatus } from "../../db/schema";
import { wrongStatus } from "./guards";
import type { TaskRow } from "./view";

export const TASK_MOVES = {
  claim: { from: ["ready"], to: "in_progress" },
  submit: { from: ["in_progress"], to: "review" },
  /** A lease that ran out, a coder giving the task up, a flight handing it back. */
  release: { from: ["in_progress"], to: "ready" },
  accept: { from: ["review"], to: "done" },
  /** Rework: back to its owner, with the same fence. */
  reject: { from: ["review"], to: "in_progress" },
  cancel: { from: ["ready", "in_progress", "review"], to: "cancelled" },
  reopen: { from: ["done"], to: "ready" },
} as const satisfies Record<string, { from: readonly TaskStatus[]; to: TaskStatus }>;

export type TaskMove = keyof typeof TASK_MOVES;

/** Refuses (409 wrong_status) an action whose move cannot leave the task's status; `action` words it. */
export function requireMove(task: TaskRow, move: TaskMove, action: string = move): void {
  const from: readonly TaskStatus[] = TASK_MOVES[move].from;
  if (!from.includes(task.status)) throw wrongStatus(task, [...from], action);
}

/** The legal (from, to) pairs, in a stable order: every move's. */
export function legalTaskMoves(): [TaskStatus, TaskStatus][] {
  const pairs = Object.values(TASK_MOVES).flatMap(({ from, to }) => from.map((status): [TaskStatus, TaskStatus] => [status, to]));
  const unique = new Map(pairs.map((pair) => [pair.join(" "), pair]));
  return [...unique.values()].sort((a, b) => a.join(" ").localeCompare(b.join(" ")));
}

/** The text of db/functions/quorum_task_move_legal.sql, as `npm run db:moves` writes it. */
export function taskMoveFunctionSql(): string {
  const pairs = legalTaskMoves()
    .map(([from, to]) => `('${from}', '${to}')`)
    .join(", ");
  return `-- Whether a task may go from p_from to p_to: the task board's state machine, which the guard on tasks
-- (quorum_tasks_guard) holds every writer to. Written by \`npm run db:moves\` from domain/tasks/moves.ts, where
-- the table lives; edit it there (domain/tasks/moves.test.ts fails while this file differs).
CREATE OR REPLACE FUNCTION public.quorum_task_move_legal(p_from text, p_to text)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT (p_from, p_to) IN (${pairs})
$function$
;
`;
}

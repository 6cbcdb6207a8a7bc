// A run as a person names it: who ran it and on which task. Its id (`run_a0c3…`) means nothing to a reader.
import type { RunBill } from "./types";

/** "coder-1 on #12 Parse the config"; on the agent's own page (`withAgent` false) just "#12 Parse the config". */
export function runName(run: Pick<RunBill, "agentName" | "taskId" | "taskNumber" | "taskTitle">, withAgent: boolean): string {
  const task = run.taskNumber !== null ? `#${run.taskNumber} ${run.taskTitle ?? ""}`.trim() : run.taskId ? "a task no longer on the board" : null;
  if (!withAgent) return task ?? "Without a task";
  const agent = run.agentName ?? "An agent";
  return task ? `${agent} on ${task}` : `${agent}, without a task`;
}

// What the loop does next, read off the run's fold: a typed value, so resuming and running are one path.
import type { Observation, RunResult, ToolCall } from "../domain/runs/run-events";
import type { RunState } from "../domain/runs/resume-point";
import { DONE } from "./tools/done";

export type NextStep =
  /** The run already ended: hand back its recorded result. */
  | { kind: "return"; result: RunResult }
  /** The run ends now with this result (AgentFinished). */
  | { kind: "finish"; result: Extract<RunResult, { status: "done" | "inconclusive" | "out_of_turns" }> }
  /** Between turns: operator stop, budget and turn cap are checked, then a turn begins. */
  | { kind: "boundary" }
  | { kind: "call_model" }
  | { kind: "done"; index: number; call: ToolCall }
  | { kind: "dispatch"; index: number; call: ToolCall }
  | { kind: "retry"; index: number; call: ToolCall; attempt: number; after: string }
  /** The process died while this call ran: re-run it if idempotent, else say its effect is unknown. */
  | { kind: "resume_tool"; index: number; call: ToolCall; attempt: number };

/** Loop policy: a transient error of an idempotent tool gets `retryAttempts` more tries. */
export function shouldRetry(state: RunState, call: ToolCall, observation: Observation | null, attempt: number): observation is Observation & { is_error: true } {
  if (!observation?.is_error || !observation.transient) return false;
  const spec = state.config?.tools.find((t) => t.name === call.name);
  return Boolean(spec?.idempotent) && attempt <= (state.config?.retryAttempts ?? 0);
}

/** A result before the tally is added (distributed over the statuses). */
type Untallied = RunResult extends infer R ? (R extends unknown ? Omit<R, "turns" | "spent"> : never) : never;

/** Adds the run's tally to a result. */
export function outcome<R extends Untallied>(state: RunState, result: R): Extract<RunResult, { status: R["status"] }> {
  return { ...result, turns: state.turn, spent: state.spent } as unknown as Extract<RunResult, { status: R["status"] }>;
}

function callAt(calls: ToolCall[], index: number): NextStep {
  const call = calls[index];
  return call.name === DONE ? { kind: "done", index, call } : { kind: "dispatch", index, call };
}

/** After a turn: a second prose answer in a row ends the run; otherwise the boundary checks come. */
function afterTurn(state: RunState): NextStep {
  if (state.consecutiveProse >= 2) {
    return { kind: "finish", result: outcome(state, { status: "inconclusive", reason: "answered in prose twice in a row without acting" }) };
  }
  return { kind: "boundary" };
}

export function nextStep(state: RunState): NextStep {
  const cursor = state.cursor;
  switch (cursor.at) {
    case "not_started":
      throw new Error("the run has no RunStarted event");
    case "finished":
      return { kind: "return", result: cursor.result };
    case "boundary":
    case "halted":
    case "stopped":
      return afterTurn(state);
    case "awaiting_response":
      return { kind: "call_model" };
    case "tool": {
      const step = state.steps.at(-1)!;
      const calls = step.response!.toolCalls;
      const call = calls[cursor.index];
      if (cursor.phase === "pending") return callAt(calls, cursor.index);
      if (cursor.phase === "running") return { kind: "resume_tool", index: cursor.index, call, attempt: cursor.attempt };
      const observation = step.observations[cursor.index];
      if (shouldRetry(state, call, observation, cursor.attempt)) {
        return { kind: "retry", index: cursor.index, call, attempt: cursor.attempt + 1, after: observation.reason };
      }
      return cursor.index + 1 < calls.length ? callAt(calls, cursor.index + 1) : afterTurn(state);
    }
  }
}

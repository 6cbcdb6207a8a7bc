// The resume point of a run: a pure fold of its events saying where it stands and what it has seen.
// The loop keeps no other state, so a process that dies anywhere continues from this fold alone.
import type { Executor } from "../../db/client";
import { loadRunEvents, type JournalRecord } from "../journal/load";
import { payloadOf } from "../journal/payloads";
import type { Mail, ModelResponse, Observation, RunConfig, RunResult } from "./run-events";

/** One turn: the mail it delivered, the model's response, and the final observation of each call. */
export interface Step {
  turn: number;
  mail: Mail[];
  response: ModelResponse | null;
  /** By tool-call index; a retried call keeps its last observation. */
  observations: (Observation | null)[];
}

/** Where the run stands between two events. */
export type Cursor =
  | { at: "not_started" }
  /** Between turns: the stop, budget and turn-cap checks come next. */
  | { at: "boundary" }
  /** ModelCalled is journalled, its response is not: the call is made (again). */
  | { at: "awaiting_response" }
  /** Working through the response's tool calls; `running` means dispatched and not returned. */
  | { at: "tool"; index: number; attempt: number; phase: "pending" | "running" | "returned" }
  | { at: "halted" | "stopped" | "finished"; result: RunResult };

export interface RunState {
  runId: string | null;
  agentId: string | null;
  taskId: string | null;
  config: RunConfig | null;
  /** Turns begun (ModelCalled events). */
  turn: number;
  /** Model calls that came back, answered or failed: how far a scripted client has read. */
  modelCalls: number;
  /** Tokens debited by this run. */
  spent: number;
  /** Responses in a row without a tool call: one earns a nudge, two end the run. */
  consecutiveProse: number;
  steps: Step[];
  cursor: Cursor;
  /** An operator asked to stop and no RunStopped has honoured it yet. */
  stopPending: boolean;
  /** The newest of the run's own events (the fence a writer checks before appending). */
  lastEventId: number | null;
}

export function emptyRunState(): RunState {
  return {
    runId: null,
    agentId: null,
    taskId: null,
    config: null,
    turn: 0,
    modelCalls: 0,
    spent: 0,
    consecutiveProse: 0,
    steps: [],
    cursor: { at: "not_started" },
    stopPending: false,
    lastEventId: null,
  };
}

/** Folds events (in journal order) into `state`, which it updates and returns. */
export function foldRun(events: readonly JournalRecord[], state: RunState = emptyRunState()): RunState {
  for (const event of events) applyRunEvent(state, event);
  return state;
}

/** The resume point of a run from its events alone. */
export function resumePoint(events: readonly JournalRecord[]): RunState {
  return foldRun(events);
}

function applyRunEvent(state: RunState, event: JournalRecord): void {
  // An operator's stop request is not the run's own write: it must not move the writer's fence.
  if (event.kind === "StopRequested") {
    state.stopPending = true;
    return;
  }
  if (event.kind === "ResumeRequested") return;
  state.lastEventId = event.id;
  const step = state.steps.at(-1);
  switch (event.kind) {
    case "RunStarted":
      state.runId = event.runId;
      state.agentId = event.actor;
      state.taskId = event.taskId;
      state.config = payloadOf(event, "RunStarted");
      state.cursor = { at: "boundary" };
      break;
    case "ModelCalled": {
      const data = payloadOf(event, "ModelCalled");
      state.turn = data.turn;
      state.steps.push({ turn: data.turn, mail: data.mail ?? [], response: null, observations: [] });
      state.cursor = { at: "awaiting_response" };
      break;
    }
    case "ModelFailed":
      state.modelCalls += 1;
      break;
    case "ModelResponded": {
      const response = payloadOf(event, "ModelResponded");
      state.modelCalls += 1;
      if (step) {
        step.response = response;
        step.observations = response.toolCalls.map(() => null);
      }
      if (response.toolCalls.length === 0) {
        state.consecutiveProse += 1;
        state.cursor = { at: "boundary" };
      } else {
        state.consecutiveProse = 0;
        state.cursor = { at: "tool", index: 0, attempt: 1, phase: "pending" };
      }
      break;
    }
    case "BudgetDebited":
      state.spent += payloadOf(event, "BudgetDebited").amount;
      break;
    case "ToolDispatched":
    case "ToolRetried": {
      const data = payloadOf(event, event.kind);
      state.cursor = { at: "tool", index: data.index, attempt: data.attempt, phase: "running" };
      break;
    }
    case "ToolReturned": {
      const data = payloadOf(event, "ToolReturned");
      if (step) step.observations[data.index] = data.observation;
      state.cursor = { at: "tool", index: data.index, attempt: data.attempt, phase: "returned" };
      break;
    }
    case "AgentFinished":
      state.cursor = { at: "finished", result: payloadOf(event, "AgentFinished").result };
      break;
    case "BudgetExhausted":
      state.cursor = { at: "halted", result: payloadOf(event, "BudgetExhausted").result };
      break;
    case "RunStopped":
      state.stopPending = false;
      state.cursor = { at: "stopped", result: payloadOf(event, "RunStopped").result };
      break;
  }
}

/** A one-line reading of the resume point, for people and the journal explorer. */
export function describeResumePoint(state: RunState): string {
  const c = state.cursor;
  switch (c.at) {
    case "not_started":
      return "not started";
    case "boundary":
      return `between turns, after turn ${state.turn}`;
    case "awaiting_response":
      return `turn ${state.turn}: waiting for the model's response`;
    case "tool": {
      const call = state.steps.at(-1)?.response?.toolCalls[c.index];
      return `turn ${state.turn}: tool call ${c.index + 1} (${call?.name ?? "?"}), attempt ${c.attempt}, ${c.phase}`;
    }
    default:
      return `${c.at} after turn ${state.turn}: ${c.result.status}`;
  }
}

/** The resume point of a run in the database. */
export async function loadResumePoint(db: Executor, runId: string): Promise<RunState> {
  return resumePoint(await loadRunEvents(db, runId));
}

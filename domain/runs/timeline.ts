// The timeline of a run: its turns in order — the mail and context of each model call, the response,
// the tokens debited, every tool call with each attempt's observation — and how the run ended.
import { payloadOf } from "../journal/payloads";
import type { Mail, ModelCalledData, ModelResponse, Observation, RunConfig, RunResult } from "./run-events";
import type { JournalRecord } from "../journal/load";

export interface Attempt {
  attempt: number;
  /** The ToolDispatched (or ToolRetried) event; null when the call was refused before dispatch. */
  startedEventId: number | null;
  retriedAfter: string | null;
  returnedEventId: number | null;
  observation: Observation | null;
}

export interface TimelineCall {
  index: number;
  callId: string;
  tool: string;
  /** As the model sent them. */
  arguments: unknown;
  /** As validated (defaults applied), when dispatched. */
  args: unknown;
  writes: string | null;
  attempts: Attempt[];
}

export interface TimelineTurn {
  turn: number;
  calledEventId: number;
  t: string;
  mail: Mail[];
  context: ModelCalledData["context"] | null;
  respondedEventId: number | null;
  response: ModelResponse | null;
  failed: string | null;
  debit: { eventId: number; amount: number; inputTokens: number; outputTokens: number; cachedTokens: number; estimated: boolean; model: string; budgetIds: string[] } | null;
  calls: TimelineCall[];
}

export interface Timeline {
  runId: string;
  agentId: string | null;
  agentName: string | null;
  taskId: string | null;
  startedEventId: number | null;
  startedAt: string | null;
  config: RunConfig | null;
  turns: TimelineTurn[];
  /** Operator stops asked for (they take effect at the next turn boundary). */
  stopRequests: { eventId: number; t: string; by: string | null; byName: string | null; reason: string }[];
  /** Humans' requests to carry the run on (the team's worker resumes it from its journal). */
  resumeRequests: { eventId: number; t: string; by: string | null; byName: string | null; reason: string }[];
  /** The last ending (a halted or stopped run may have been resumed after it). */
  result: RunResult | null;
  endedEventId: number | null;
  status: RunResult["status"] | "running";
  tokens: { total: number; input: number; output: number; cached: number };
  events: number;
  lastEventId: number | null;
}

const iso = (t: string | Date) => (typeof t === "string" ? t : t.toISOString());

export function timeline(events: readonly JournalRecord[], runId: string): Timeline {
  const out: Timeline = {
    runId,
    agentId: null,
    agentName: null,
    taskId: null,
    startedEventId: null,
    startedAt: null,
    config: null,
    turns: [],
    stopRequests: [],
    resumeRequests: [],
    result: null,
    endedEventId: null,
    status: "running",
    tokens: { total: 0, input: 0, output: 0, cached: 0 },
    events: 0,
    lastEventId: null,
  };
  const callOf = (turn: TimelineTurn | undefined, index: number) => turn?.calls.find((c) => c.index === index);
  for (const e of events) {
    if (e.runId !== runId) continue;
    out.events += 1;
    out.lastEventId = e.id;
    const turn = out.turns.at(-1);
    switch (e.kind) {
      case "RunStarted":
        Object.assign(out, { agentId: e.actor, agentName: e.actorName ?? null, taskId: e.taskId, startedEventId: e.id, startedAt: iso(e.t), config: payloadOf(e, "RunStarted") });
        break;
      case "ModelCalled": {
        const d = payloadOf(e, "ModelCalled");
        out.turns.push({
          turn: d.turn,
          calledEventId: e.id,
          t: iso(e.t),
          mail: d.mail ?? [],
          context: d.context ?? null,
          respondedEventId: null,
          response: null,
          failed: null,
          debit: null,
          calls: [],
        });
        break;
      }
      case "ModelResponded":
        if (turn) {
          turn.respondedEventId = e.id;
          turn.response = payloadOf(e, "ModelResponded");
          turn.calls = turn.response.toolCalls.map((c, index) => ({ index, callId: c.id, tool: c.name, arguments: c.arguments, args: null, writes: null, attempts: [] }));
        }
        break;
      case "ModelFailed":
        if (turn) turn.failed = payloadOf(e, "ModelFailed").error;
        break;
      case "BudgetDebited": {
        const d = payloadOf(e, "BudgetDebited");
        if (turn) turn.debit = { eventId: e.id, ...d };
        out.tokens.total += d.amount;
        out.tokens.input += d.inputTokens;
        out.tokens.output += d.outputTokens;
        out.tokens.cached += d.cachedTokens;
        break;
      }
      case "ToolDispatched": {
        const d = payloadOf(e, "ToolDispatched");
        const call = callOf(turn, d.index);
        if (call) {
          Object.assign(call, { args: d.args, writes: d.writes });
          call.attempts.push({ attempt: d.attempt, startedEventId: e.id, retriedAfter: null, returnedEventId: null, observation: null });
        }
        break;
      }
      case "ToolRetried": {
        const d = payloadOf(e, "ToolRetried");
        callOf(turn, d.index)?.attempts.push({ attempt: d.attempt, startedEventId: e.id, retriedAfter: d.after, returnedEventId: null, observation: null });
        break;
      }
      case "ToolReturned": {
        const d = payloadOf(e, "ToolReturned");
        const call = callOf(turn, d.index);
        if (!call) break;
        let attempt = call.attempts.find((a) => a.attempt === d.attempt);
        if (!attempt) {
          attempt = { attempt: d.attempt, startedEventId: null, retriedAfter: null, returnedEventId: null, observation: null };
          call.attempts.push(attempt);
        }
        attempt.returnedEventId = e.id;
        attempt.observation = d.observation;
        break;
      }
      case "StopRequested":
        out.stopRequests.push({ eventId: e.id, t: iso(e.t), by: e.actor, byName: e.actorName ?? null, reason: payloadOf(e, "StopRequested").reason });
        break;
      case "ResumeRequested":
        out.resumeRequests.push({ eventId: e.id, t: iso(e.t), by: e.actor, byName: e.actorName ?? null, reason: payloadOf(e, "ResumeRequested").reason });
        break;
      case "AgentFinished":
      case "BudgetExhausted":
      case "RunStopped":
        out.result = payloadOf(e, e.kind).result;
        out.endedEventId = e.id;
        break;
    }
    // A turn after a halt or a stop means the run was resumed: it is running again until it ends.
    if (e.kind === "ModelCalled" && out.result) Object.assign(out, { result: null, endedEventId: null });
  }
  out.status = out.result?.status ?? "running";
  return out;
}

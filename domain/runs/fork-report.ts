// What a fork reports: a run re-lived from its journal up to an event, then carried on with another script or
// the live model (agents/fork.ts does it, in memory, on a scratch copy of the run's files), and how the two
// journals differ from there — the first divergence, then both sides step by step. `quorum replay RUN --until`
// prints it; the run's replay view shows it side by side.
import { isDeepStrictEqual } from "node:util";
import { payloadOf } from "../journal/payloads";
import type { JournalRecord } from "../journal/load";
import { comparable } from "./replay-report";
import type { Observation, RunResult } from "./run-events";

/** One event after the fork point, in a reader's words. */
export interface ForkStep {
  /** Its place in the run's journal (RunStarted is 0). */
  index: number;
  kind: string;
  turn: number | null;
  /** What happened: the model's words and tool calls, a tool's arguments or its result, how the run ended. */
  what: string;
  /** Tokens a model call was debited, else null. */
  tokens: number | null;
}

export interface ForkReport {
  runId: string;
  /** The last event kept from the recording: its id, its place in the journal and its turn. */
  until: { eventId: number; index: number; turn: number };
  /** Re-living the kept part from the journal alone gave back the recorded events. */
  prefixIdentical: boolean;
  /** Where the continuation's tools worked, in words (the scratch copy and what it was rebuilt from). */
  workspace: string;
  /** What carried the run on: the script (its length) or the live model's name. */
  continuedWith: string;
  /** The events after the fork point, as recorded and as the fork wrote them. */
  original: ForkStep[];
  fork: ForkStep[];
  /** The first place the two journals part (null: the fork wrote exactly what was recorded). */
  divergence: { index: number; original: ForkStep | null; fork: ForkStep | null } | null;
  originalResult: RunResult | null;
  forkResult: RunResult | null;
  /** Tokens debited after the fork point, on each side. */
  tokens: { original: number; fork: number };
}

const clip = (text: string, max = 160) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const json = (value: unknown) => clip(JSON.stringify(value) ?? "");

function observed(observation: Observation): string {
  if (observation.is_error) return `error: ${clip(observation.reason)}`;
  const result = observation.result as { exitCode?: unknown; passed?: unknown } | null;
  if (result && typeof result === "object" && "exitCode" in result) return `exit code ${String(result.exitCode)}${result.passed === true ? " (passed)" : ""}`;
  return json(observation.result);
}

function ended(result: RunResult): string {
  const tally = `${result.turns} turn${result.turns === 1 ? "" : "s"}, ${result.spent} tokens`;
  if (result.status === "done") return `done: ${clip(result.summary)} (${tally})`;
  if (result.status === "inconclusive" || result.status === "stopped") return `${result.status}: ${clip(result.reason)} (${tally})`;
  return `${result.status} (${tally})`;
}

/** An event as a step a reader follows. */
export function stepOf(event: JournalRecord, index: number): ForkStep {
  const base = { index, kind: event.kind, turn: event.turn, tokens: null as number | null };
  switch (event.kind) {
    case "ModelCalled":
      return { ...base, what: `turn ${payloadOf(event, "ModelCalled").turn} begins` };
    case "ModelResponded": {
      const response = payloadOf(event, "ModelResponded");
      const calls = response.toolCalls.map((c) => `${c.name}(${json(c.arguments)})`).join(", ");
      return { ...base, what: [response.text && `“${clip(response.text)}”`, calls].filter(Boolean).join(" → ") || "(no text, no tool call)" };
    }
    case "BudgetDebited": {
      const debit = payloadOf(event, "BudgetDebited");
      return { ...base, tokens: debit.amount, what: `${debit.amount} tokens (${debit.inputTokens} in, ${debit.outputTokens} out)` };
    }
    case "ToolDispatched": {
      const dispatched = payloadOf(event, "ToolDispatched");
      return { ...base, what: `${dispatched.tool}(${json(dispatched.args)})` };
    }
    case "ToolReturned": {
      const returned = payloadOf(event, "ToolReturned");
      return { ...base, what: `${returned.tool} → ${observed(returned.observation)}` };
    }
    case "ToolRetried": {
      const retried = payloadOf(event, "ToolRetried");
      return { ...base, what: `${retried.tool} tried again after: ${clip(retried.after)}` };
    }
    case "ModelFailed":
      return { ...base, what: `the model failed: ${clip(payloadOf(event, "ModelFailed").error)}` };
    case "AgentFinished":
      return { ...base, what: ended(payloadOf(event, "AgentFinished").result) };
    case "RunStopped":
      return { ...base, what: ended(payloadOf(event, "RunStopped").result) };
    case "BudgetExhausted":
      return { ...base, what: ended(payloadOf(event, "BudgetExhausted").result) };
    default:
      return { ...base, what: json(event.data) };
  }
}

/** The first index at which two journals differ in anything but ids and times, or null when they agree throughout. */
export function firstDivergence(original: readonly JournalRecord[], fork: readonly JournalRecord[]): number | null {
  const length = Math.max(original.length, fork.length);
  for (let index = 0; index < length; index++) {
    const a = original[index] ? comparable(original[index]) : null;
    const b = fork[index] ? comparable(fork[index]) : null;
    // Key order aside (jsonb keeps its own), as a replay compares.
    if (!isDeepStrictEqual(a, b)) return index;
  }
  return null;
}

/** The report from the two whole journals (the fork's begins with the recorded events it kept). */
export function forkReport(parts: {
  runId: string;
  original: readonly JournalRecord[];
  fork: readonly JournalRecord[];
  keptThrough: number;
  prefixIdentical: boolean;
  workspace: string;
  continuedWith: string;
  forkResult: RunResult | null;
}): ForkReport {
  const { original, fork, keptThrough } = parts;
  const after = (events: readonly JournalRecord[]) => events.slice(keptThrough + 1).map((e, i) => stepOf(e, keptThrough + 1 + i));
  const originalSteps = after(original);
  const forkSteps = after(fork);
  const at = firstDivergence(original, fork);
  const stepAt = (steps: ForkStep[], index: number) => steps.find((s) => s.index === index) ?? null;
  const tokens = (steps: ForkStep[]) => steps.reduce((n, s) => n + (s.tokens ?? 0), 0);
  const lastResult = (events: readonly JournalRecord[]) => {
    const end = events.findLast((e) => e.kind === "AgentFinished" || e.kind === "RunStopped" || e.kind === "BudgetExhausted");
    return end ? (end.data as { result: RunResult }).result : null;
  };
  return {
    runId: parts.runId,
    until: { eventId: original[keptThrough].id, index: keptThrough, turn: original[keptThrough].turn ?? 0 },
    prefixIdentical: parts.prefixIdentical,
    workspace: parts.workspace,
    continuedWith: parts.continuedWith,
    original: originalSteps,
    fork: forkSteps,
    divergence: at === null ? null : { index: at, original: stepAt(originalSteps, at), fork: stepAt(forkSteps, at) },
    originalResult: lastResult(original),
    forkResult: parts.forkResult,
    tokens: { original: tokens(originalSteps), fork: tokens(forkSteps) },
  };
}

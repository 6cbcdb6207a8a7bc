// Replay: re-lives a run from its journal alone. The recorded responses (and model failures), tool
// observations (errors included), mail, stops and halts are fed back through the real loop, in memory,
// and the events it writes are compared with the recorded ones, all but ids and timestamps.
import { isDeepStrictEqual } from "node:util";
import { foldRun, type RunState } from "../domain/runs/resume-point";
import type { EventKind } from "../domain/journal/kinds";
import { payloadOf, type EventPayloads } from "../domain/journal/payloads";
import { OPERATOR_KINDS, type RunResult } from "../domain/runs/run-events";
import type { JournalRecord } from "../domain/journal/load";
import { driveRun, type RunJournal } from "./loop";
import { ModelError } from "./model/model-client";
import { RecordingExhausted, replayClient } from "./model/replay";
import { DONE } from "./tools/done";
import { failure, type Toolbox } from "./tools/toolbox";
import { type Comparable, comparable, type ReplayReport } from "../domain/runs/replay-report";

export type { Comparable, ReplayReport };

function recordedAt<K extends EventKind>(recorded: JournalRecord[], kind: K, match: (data: EventPayloads[K]) => boolean, turn: number): EventPayloads[K] | null {
  const hit = recorded.find((e) => e.kind === kind && e.turn === turn && match(payloadOf(e, kind)));
  return hit ? payloadOf(hit, kind) : null;
}

/** Tools answered from the journal: the recorded validation, arguments and observation of each call. */
function replayToolbox(recorded: JournalRecord[], state: RunState): Toolbox {
  return {
    specs: state.config!.tools.filter((t) => t.name !== DONE),
    prepare(call, at) {
      const dispatched = recordedAt(recorded, "ToolDispatched", (d) => d.index === at.index, at.turn);
      if (dispatched) return { ok: true, prepared: { call, args: dispatched.args, writes: dispatched.writes } };
      const refused = recordedAt(recorded, "ToolReturned", (d) => d.index === at.index && d.attempt === 1, at.turn);
      return { ok: false, observation: refused?.observation ?? failure("the journal records no such call", "none: the replay diverged here") };
    },
    async execute(_prepared, ctx) {
      const returned = recordedAt(recorded, "ToolReturned", (d) => d.index === ctx.index && d.attempt === ctx.attempt, ctx.turn);
      return returned?.observation ?? failure("the journal records no observation for this try", "none: the replay diverged here");
    },
  };
}

/**
 * Appends a step's events to a journal held in memory (a replay's, a fork's continuation) as the run fence
 * would write them — the run's actor, task and turn; ids that follow the list, no time — and folds them in.
 */
export function appendInMemory(events: JournalRecord[], state: RunState, drafts: { kind: string; data: object; turn?: number }[]): RunState {
  const written = drafts.map((draft, i) => ({
    id: events.length + 1 + i,
    t: new Date(0),
    kind: draft.kind,
    actor: state.agentId,
    runId: state.runId,
    taskId: state.taskId,
    turn: draft.turn ?? state.turn,
    data: JSON.parse(JSON.stringify(draft.data)),
  }));
  events.push(...written);
  return foldRun(written, state);
}

/** The journal of a replay: appends to memory, and answers boundary questions from the recording. */
function memoryJournal(recorded: JournalRecord[], replayed: JournalRecord[]): RunJournal {
  const ahead = () => recorded[replayed.length];
  const push = (state: RunState, drafts: { kind: string; data: object; turn?: number }[]) => appendInMemory(replayed, state, drafts);
  return {
    append: async (state, drafts) => push(state, drafts),
    beginTurn: async (state, turn, describe) => {
      const next = ahead();
      const mail = next?.kind === "ModelCalled" ? (payloadOf(next, "ModelCalled").mail ?? []) : [];
      return push(state, [{ kind: "ModelCalled", turn, data: describe(mail) }]);
    },
    // Whatever stopped the run (an operator, its lost lease, its wall clock), the recording says why.
    stopRequested: async () => {
      const next = ahead();
      return next?.kind === "RunStopped" ? payloadOf(next, "RunStopped").result.reason : null;
    },
    exhaustedBudget: async () => {
      const next = ahead();
      if (next?.kind !== "BudgetExhausted") return null;
      const { result } = payloadOf(next, "BudgetExhausted");
      return { budgetId: result.budgetId, allowance: result.allowance, budgetSpent: result.budgetSpent };
    },
  };
}

/** Replays the events of one run (as loaded, in journal order). */
export async function replayRun(events: readonly JournalRecord[]): Promise<ReplayReport> {
  // Stop requests are the operator's input, not the run's output: the RunStopped they caused is compared.
  const recorded = events.filter((e) => !(OPERATOR_KINDS as readonly string[]).includes(e.kind));
  if (recorded[0]?.kind !== "RunStarted") throw new Error("a run's journal begins with RunStarted");
  const replayed: JournalRecord[] = [recorded[0]];
  const state = foldRun([recorded[0]]);
  const ports = { client: replayClient(recorded), toolbox: replayToolbox(recorded, state), journal: memoryJournal(recorded, replayed) };
  let result: RunResult | null = null;
  let ended: ReplayReport["ended"] = "recording_ended";
  // A halt, a stop or a failed model call ends one drive; the recording shows whether the run was resumed.
  while (replayed.length < recorded.length) {
    const before = replayed.length;
    try {
      result = await driveRun(state, ports);
      ended = state.cursor.at === "finished" ? "finished" : (result.status as "halted" | "stopped");
      if (state.cursor.at === "finished") break;
    } catch (error) {
      if (error instanceof RecordingExhausted) break;
      if (!(error instanceof ModelError)) throw error;
    }
    if (replayed.length === before) break;
  }
  const length = Math.max(recorded.length, replayed.length);
  for (let index = 0; index < length; index++) {
    const expected = recorded[index] ? comparable(recorded[index]) : null;
    const actual = replayed[index] ? comparable(replayed[index]) : null;
    if (!isDeepStrictEqual(expected, actual)) {
      // Running past the end of an unfinished recording is not a divergence, only the end of the evidence.
      if (expected === null && ended === "recording_ended") break;
      return { runId: state.runId, identical: false, recorded: recorded.length, replayed: replayed.length, result, ended: "diverged", divergence: { index, expected, actual } };
    }
  }
  return { runId: state.runId, identical: true, recorded: recorded.length, replayed: replayed.length, result, ended };
}

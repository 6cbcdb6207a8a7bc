// A run's resume point as a pure fold of hand-made events: where it stands after a crash anywhere.
import { describe, expect, it } from "vitest";
import { handMadeEvent, handMadeJournal } from "../../test/fixtures/journal";
import { describeResumePoint, resumePoint } from "./resume-point";

const T1 = "11111111-1111-4111-8111-111111111111";
const [CODER, HUMAN] = ["c0", "h0"];

describe("resume point", () => {
  const started = handMadeEvent("RunStarted", CODER, { task: "t", tools: [], maxTurns: 5, retryAttempts: 1 }, { runId: "R1", taskId: T1, turn: 0 });
  const response = {
    text: "",
    toolCalls: [
      { id: "a", name: "run_tests", arguments: {} },
      { id: "b", name: "done", arguments: { summary: "s" } },
    ],
    usage: { inputTokens: 100, outputTokens: 50, cachedTokens: 0, estimated: false },
    model: "m",
  };
  const flake = { is_error: true, reason: "died", recovery_hint: "again", transient: true };
  const events = handMadeJournal(
    started,
    handMadeEvent("ModelCalled", CODER, { turn: 1, mail: [] }, { runId: "R1", turn: 1 }),
    handMadeEvent("ModelResponded", CODER, response, { runId: "R1", turn: 1 }),
    handMadeEvent("BudgetDebited", CODER, { amount: 150 }, { runId: "R1", turn: 1 }),
    handMadeEvent("ToolDispatched", CODER, { index: 0, callId: "a", tool: "run_tests", args: {}, attempt: 1, writes: null }, { runId: "R1", turn: 1 }),
    handMadeEvent("ToolReturned", CODER, { index: 0, callId: "a", tool: "run_tests", attempt: 1, observation: flake }, { runId: "R1", turn: 1 }),
    handMadeEvent("ToolRetried", CODER, { index: 0, callId: "a", tool: "run_tests", attempt: 2, after: "died" }, { runId: "R1", turn: 1 }),
    handMadeEvent("StopRequested", HUMAN, { reason: "wait" }, { runId: "R1" }),
  );

  it("stands mid-retry after a crash there, with the operator's stop pending and the writer's fence unmoved by it", () => {
    const state = resumePoint(events);
    expect(state).toMatchObject({ runId: "R1", agentId: CODER, taskId: T1, turn: 1, modelCalls: 1, spent: 150, stopPending: true, lastEventId: 7 });
    expect(state.cursor).toEqual({ at: "tool", index: 0, attempt: 2, phase: "running" });
    expect(state.steps).toEqual([{ turn: 1, mail: [], response, observations: [flake, null] }]);
    expect(describeResumePoint(state)).toBe("turn 1: tool call 1 (run_tests), attempt 2, running");
  });

  it("moves on to the next call, a prose turn, and a stop", () => {
    const ok = { is_error: false, result: { exitCode: 0 } };
    const prose = { ...response, text: "hm", toolCalls: [] };
    const more = handMadeJournal(
      ...events,
      handMadeEvent("ToolReturned", CODER, { index: 0, callId: "a", tool: "run_tests", attempt: 2, observation: ok }, { runId: "R1", turn: 1 }),
      handMadeEvent("ModelCalled", CODER, { turn: 2, mail: [{ messageId: 3 }] }, { runId: "R1", turn: 2 }),
      handMadeEvent("ModelResponded", CODER, prose, { runId: "R1", turn: 2 }),
      handMadeEvent("RunStopped", CODER, { result: { status: "stopped", reason: "an operator asked to stop", turns: 2, spent: 150 } }, { runId: "R1", turn: 2 }),
    );
    const state = resumePoint(more.slice(0, 9));
    expect(state.cursor).toEqual({ at: "tool", index: 0, attempt: 2, phase: "returned" });
    expect(state.steps[0].observations).toEqual([ok, null]);
    const later = resumePoint(more.slice(0, 11));
    expect(later).toMatchObject({ turn: 2, modelCalls: 2, consecutiveProse: 1, cursor: { at: "boundary" } });
    expect(later.steps).toHaveLength(2);
    expect(later.steps[1].mail).toEqual([{ messageId: 3 }]);
    const stopped = resumePoint(more);
    expect(stopped).toMatchObject({ stopPending: false, cursor: { at: "stopped", result: { status: "stopped" } } });
    expect(describeResumePoint(stopped)).toBe("stopped after turn 2: stopped");
  });
});

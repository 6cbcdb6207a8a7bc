// The journal's views as pure folds, checked against figures worked out by hand.
import { describe, expect, it } from "vitest";
import { audit } from "./audit";
import { bill } from "./bill";
import { describeResumePoint, resumePoint } from "./resume-point";
import type { JournalRecord } from "./run-events";
import { thread } from "./thread";

const T1 = "11111111-1111-4111-8111-111111111111";
const T2 = "22222222-2222-4222-8222-222222222222";
const [CODER, REVIEWER, TESTER, HUMAN] = ["c0", "r0", "t0", "h0"];

function journal(...events: Omit<JournalRecord, "id" | "t">[]): JournalRecord[] {
  return events.map((e, i) => ({ ...e, id: i + 1, t: new Date(Date.UTC(2026, 0, 1, 0, 0, i)) }));
}
const at = (kind: string, actor: string | null, data: object, more: Partial<JournalRecord> = {}) => ({ kind, actor, runId: null, taskId: null, turn: null, data, ...more });
const debit = (actor: string, runId: string, taskId: string | null, model: string, input: number, output: number, budgetIds: string[], extra = {}) =>
  at(
    "BudgetDebited",
    actor,
    { amount: input + output, inputTokens: input, outputTokens: output, cachedTokens: 0, estimated: false, model, budgetIds, ...extra },
    { runId, taskId },
  );

describe("bill", () => {
  it("adds up tokens per agent, task, run and model, and what is left of each budget", () => {
    const events = journal(
      at("BudgetCreated", null, { budgetId: "team", ownerId: "o0", parentId: null, label: "team", allowance: 1000 }),
      at("BudgetCreated", "o0", { budgetId: "coder", ownerId: CODER, parentId: "team", label: "", allowance: 300 }),
      at("RunStarted", CODER, {}, { runId: "R1", taskId: T1 }),
      debit(CODER, "R1", T1, "m1", 100, 20, ["coder", "team"], { cachedTokens: 50 }),
      debit(CODER, "R1", T1, "m1", 70, 10, ["coder", "team"], { estimated: true }),
      at("AgentFinished", CODER, { result: { status: "done", summary: "s", evidence: ["e"], turns: 2, spent: 200 } }, { runId: "R1", taskId: T1 }),
      at("RunStarted", REVIEWER, {}, { runId: "R2", taskId: T1 }),
      debit(REVIEWER, "R2", T1, "m2", 50, 10, []),
      debit(TESTER, "R3", null, "m1", 30, 10, ["team"]),
      at("BudgetExhausted", TESTER, { result: { status: "halted", budgetId: "team", allowance: 1000, budgetSpent: 1000, turns: 1, spent: 40 } }, { runId: "R3" }),
      at("BudgetAllowanceChanged", HUMAN, { budgetId: "coder", allowance: 250, previous: 300 }),
    );
    const line = (tokens: number, inputTokens: number, outputTokens: number, calls: number, cachedTokens = 0, estimatedCalls = 0) => ({
      tokens,
      inputTokens,
      outputTokens,
      cachedTokens,
      calls,
      estimatedCalls,
    });
    expect(bill(events)).toEqual({
      total: line(300, 250, 50, 4, 50, 1),
      agents: [
        { agentId: CODER, agentName: null, ...line(200, 170, 30, 2, 50, 1) },
        { agentId: REVIEWER, agentName: null, ...line(60, 50, 10, 1) },
        { agentId: TESTER, agentName: null, ...line(40, 30, 10, 1) },
      ],
      tasks: [{ taskId: T1, ...line(260, 220, 40, 3, 50, 1) }],
      runs: [
        { runId: "R1", agentId: CODER, taskId: T1, status: "done", ...line(200, 170, 30, 2, 50, 1) },
        { runId: "R2", agentId: REVIEWER, taskId: T1, status: "running", ...line(60, 50, 10, 1) },
        { runId: "R3", agentId: TESTER, taskId: null, status: "halted", ...line(40, 30, 10, 1) },
      ],
      models: [
        { model: "m1", ...line(240, 200, 40, 3, 50, 1) },
        { model: "m2", ...line(60, 50, 10, 1) },
      ],
      budgets: [
        { budgetId: "team", ownerId: "o0", parentId: null, label: "team", allowance: 1000, spent: 240, left: 760, exhausted: false },
        { budgetId: "coder", ownerId: CODER, parentId: "team", label: "", allowance: 250, spent: 200, left: 50, exhausted: false },
      ],
    });
  });
});

describe("thread", () => {
  it("gives a task's messages, transitions and run milestones in journal order, and nothing of other tasks", () => {
    const events = journal(
      at("TaskCreated", HUMAN, { number: 1, title: "fix parse" }, { taskId: T1 }),
      at("MessageSent", HUMAN, { room: "general", seq: 1, messageId: 1, to: CODER, performative: "REQUEST", body: "please" }, { taskId: T1 }),
      at("MessageSent", HUMAN, { room: "general", seq: 2, messageId: 2, to: null, performative: null, body: "elsewhere" }, { taskId: T2 }),
      at("TaskClaimed", CODER, { number: 1, fence: 1 }, { taskId: T1 }),
      at("RunStarted", CODER, {}, { runId: "R1", taskId: T1 }),
      at("ModelCalled", CODER, { turn: 1, mail: [] }, { runId: "R1", taskId: T1, turn: 1 }),
      at("AgentFinished", CODER, { result: { status: "done", summary: "guarded ''", evidence: [], turns: 1, spent: 9 } }, { runId: "R1", taskId: T1 }),
      at("MessageSent", CODER, { room: "general", seq: 3, messageId: 3, to: HUMAN, performative: "DONE", body: "done" }, { taskId: T1 }),
    );
    const entries = thread(events, T1);
    expect(entries.map((e) => [e.eventId, e.type, e.type === "message" ? e.body : e.kind])).toEqual([
      [1, "transition", "TaskCreated"],
      [2, "message", "please"],
      [4, "transition", "TaskClaimed"],
      [5, "run", "RunStarted"],
      [7, "run", "AgentFinished"],
      [8, "message", "done"],
    ]);
    expect(entries[4]).toMatchObject({ runId: "R1", status: "done", summary: "guarded ''" });
    expect(entries[1]).toMatchObject({ to: CODER, performative: "REQUEST", seq: 1, t: "2026-01-01T00:00:01.000Z" });
  });
});

describe("audit", () => {
  it("ties every verdict to the evidence it judged", () => {
    const events = journal(
      at("TaskSubmitted", CODER, { number: 1, fence: 1, summary: "first try", evidenceId: 5 }, { taskId: T1 }),
      at("TaskReviewed", REVIEWER, { verdict: "reject", reason: "no test for ''", ownerId: CODER }, { taskId: T1 }),
      at("AgentFinished", CODER, { result: { status: "done", summary: "added the test", evidence: ["2 passed"], turns: 3, spent: 10 } }, { taskId: T1, runId: "R1" }),
      at("MessageSent", REVIEWER, { messageId: 9, performative: "ACCEPT", body: "good now" }, { taskId: T1 }),
      at("TaskReviewed", REVIEWER, { verdict: "accept", reason: null }, { taskId: T1 }),
      at("TaskReviewed", REVIEWER, { verdict: "reject", reason: "other task" }, { taskId: T2 }),
    );
    const result = audit(events, T1, { "5": "diff --git a/parser.js" });
    expect(result.submissions.map((s) => [s.eventId, s.via, s.summary, s.evidence])).toEqual([
      [1, "board", "first try", ["diff --git a/parser.js"]],
      [3, "run", "added the test", ["2 passed"]],
    ]);
    expect(result.verdicts.map((v) => [v.eventId, v.by, v.via, v.verdict, v.reason, v.on?.eventId])).toEqual([
      [2, REVIEWER, "review", "reject", "no test for ''", 1],
      [4, REVIEWER, "message", "accept", "good now", 3],
      [5, REVIEWER, "review", "accept", null, 3],
    ]);
    expect(result.accepted).toBe(true);
  });
});

describe("resume point", () => {
  const started = at("RunStarted", CODER, { task: "t", tools: [], maxTurns: 5, retryAttempts: 1 }, { runId: "R1", taskId: T1, turn: 0 });
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
  const events = journal(
    started,
    at("ModelCalled", CODER, { turn: 1, mail: [] }, { runId: "R1", turn: 1 }),
    at("ModelResponded", CODER, response, { runId: "R1", turn: 1 }),
    at("BudgetDebited", CODER, { amount: 150 }, { runId: "R1", turn: 1 }),
    at("ToolDispatched", CODER, { index: 0, callId: "a", tool: "run_tests", args: {}, attempt: 1, writes: null }, { runId: "R1", turn: 1 }),
    at("ToolReturned", CODER, { index: 0, callId: "a", tool: "run_tests", attempt: 1, observation: flake }, { runId: "R1", turn: 1 }),
    at("ToolRetried", CODER, { index: 0, callId: "a", tool: "run_tests", attempt: 2, after: "died" }, { runId: "R1", turn: 1 }),
    at("StopRequested", HUMAN, { reason: "wait" }, { runId: "R1" }),
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
    const more = journal(
      ...events,
      at("ToolReturned", CODER, { index: 0, callId: "a", tool: "run_tests", attempt: 2, observation: ok }, { runId: "R1", turn: 1 }),
      at("ModelCalled", CODER, { turn: 2, mail: [{ messageId: 3 }] }, { runId: "R1", turn: 2 }),
      at("ModelResponded", CODER, prose, { runId: "R1", turn: 2 }),
      at("RunStopped", CODER, { result: { status: "stopped", reason: "an operator asked to stop", turns: 2, spent: 150 } }, { runId: "R1", turn: 2 }),
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

// The bill as a pure fold of hand-made events, checked against figures worked out by hand.
import { describe, expect, it } from "vitest";
import { handMadeEvent, handMadeJournal } from "../../test/fixtures/journal";
import { bill } from "./bill";

const T1 = "11111111-1111-4111-8111-111111111111";
const [CODER, REVIEWER, TESTER, HUMAN, OUTSIDE] = ["c0", "r0", "t0", "h0", "x0"];
const debit = (actor: string, runId: string, taskId: string | null, model: string, input: number, output: number, budgetIds: string[], extra = {}) =>
  handMadeEvent(
    "BudgetDebited",
    actor,
    { amount: input + output, inputTokens: input, outputTokens: output, cachedTokens: 0, estimated: false, model, budgetIds, ...extra },
    { runId, taskId },
  );

describe("bill", () => {
  it("adds up tokens per agent, task, run and model (an outside agent's self-reported call marked so), and what is left of each budget", () => {
    const events = handMadeJournal(
      handMadeEvent("BudgetCreated", null, { budgetId: "team", ownerId: "o0", parentId: null, label: "team", allowance: 1000 }),
      handMadeEvent("BudgetCreated", "o0", { budgetId: "coder", ownerId: CODER, parentId: "team", label: "", allowance: 300 }),
      handMadeEvent("RunStarted", CODER, {}, { runId: "R1", taskId: T1 }),
      debit(CODER, "R1", T1, "m1", 100, 20, ["coder", "team"], { cachedTokens: 50 }),
      debit(CODER, "R1", T1, "m1", 70, 10, ["coder", "team"], { estimated: true }),
      handMadeEvent("AgentFinished", CODER, { result: { status: "done", summary: "s", evidence: ["e"], turns: 2, spent: 200 } }, { runId: "R1", taskId: T1 }),
      handMadeEvent("RunStarted", REVIEWER, {}, { runId: "R2", taskId: T1 }),
      debit(REVIEWER, "R2", T1, "m2", 50, 10, []),
      debit(TESTER, "R3", null, "m1", 30, 10, ["team"]),
      handMadeEvent("BudgetExhausted", TESTER, { result: { status: "halted", budgetId: "team", allowance: 1000, budgetSpent: 1000, turns: 1, spent: 40 } }, { runId: "R3" }),
      handMadeEvent("BudgetAllowanceChanged", HUMAN, { budgetId: "coder", allowance: 250, previous: 300 }),
      // An outside agent's own account of a call on T1: no run, no budget.
      handMadeEvent("UsageReported", OUTSIDE, { model: "m2", amount: 60, inputTokens: 40, outputTokens: 20, cachedTokens: 10, selfReported: true }, { taskId: T1 }),
    );
    const line = (
      tokens: number,
      inputTokens: number,
      outputTokens: number,
      calls: number,
      cachedTokens = 0,
      estimatedCalls = 0,
      selfReportedTokens = 0,
      selfReportedCalls = 0,
    ) => ({
      tokens,
      inputTokens,
      outputTokens,
      cachedTokens,
      calls,
      estimatedCalls,
      selfReportedTokens,
      selfReportedCalls,
    });
    expect(bill(events)).toEqual({
      total: line(360, 290, 70, 5, 60, 1, 60, 1),
      agents: [
        { agentId: CODER, agentName: null, ...line(200, 170, 30, 2, 50, 1) },
        { agentId: REVIEWER, agentName: null, ...line(60, 50, 10, 1) },
        { agentId: OUTSIDE, agentName: null, ...line(60, 40, 20, 1, 10, 0, 60, 1) },
        { agentId: TESTER, agentName: null, ...line(40, 30, 10, 1) },
      ],
      tasks: [{ taskId: T1, ...line(320, 260, 60, 4, 60, 1, 60, 1) }],
      runs: [
        { runId: "R1", agentId: CODER, taskId: T1, status: "done", ...line(200, 170, 30, 2, 50, 1) },
        { runId: "R2", agentId: REVIEWER, taskId: T1, status: "running", ...line(60, 50, 10, 1) },
        { runId: "R3", agentId: TESTER, taskId: null, status: "halted", ...line(40, 30, 10, 1) },
      ],
      models: [
        { model: "m1", ...line(240, 200, 40, 3, 50, 1) },
        { model: "m2", ...line(120, 90, 30, 2, 10, 0, 60, 1) },
      ],
      budgets: [
        { budgetId: "team", ownerId: "o0", parentId: null, label: "team", allowance: 1000, spent: 240, left: 760, exhausted: false },
        { budgetId: "coder", ownerId: CODER, parentId: "team", label: "", allowance: 250, spent: 200, left: 50, exhausted: false },
      ],
    });
  });
});

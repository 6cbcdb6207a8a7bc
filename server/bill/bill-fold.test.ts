// The bill as a pure fold of hand-made events, checked against figures worked out by hand.
import { describe, expect, it } from "vitest";
import { handMadeEvent, handMadeJournal } from "../../test/fixtures/journal";
import { bill } from "./bill";

const T1 = "11111111-1111-4111-8111-111111111111";
const [CODER, REVIEWER, TESTER, HUMAN] = ["c0", "r0", "t0", "h0"];
const debit = (actor: string, runId: string, taskId: string | null, model: string, input: number, output: number, budgetIds: string[], extra = {}) =>
  handMadeEvent(
    "BudgetDebited",
    actor,
    { amount: input + output, inputTokens: input, outputTokens: output, cachedTokens: 0, estimated: false, model, budgetIds, ...extra },
    { runId, taskId },
  );

describe("bill", () => {
  it("adds up tokens per agent, task, run and model, and what is left of each budget", () => {
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

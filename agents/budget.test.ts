// Budgets: a child funded below its need halts alone, at a turn boundary, with every ledger exact;
// a top-up lets the halted run resume; subdivision never promises more than the parent holds.
import { describe, expect, it } from "vitest";
import { getDb } from "../db/client";
import { manualClock } from "../domain/clock";
import { QuorumError } from "../domain/errors";
import { loadBill } from "../domain/bill/bill";
import { loadRunEvents } from "../domain/journal/load";
import { makeAgent, makeHuman } from "../test/helpers";
import { createBudget } from "../domain/budgets/create";
import { setAllowance } from "../domain/budgets/set-allowance";
import { budgetSpent } from "../domain/budgets/spend";
import { scriptedClient, type ScriptEntry } from "./model/scripted";
import { resumeRun } from "./resume";
import { startRun } from "./run";
import { CODER_SYSTEM, FIX_SCRIPT, FIX_TASK, makeScratchRepo, scratchTools } from "../test/fixtures/runtime";

const clock = manualClock();
const finish = (input: number, output: number): ScriptEntry => ({
  toolCalls: [{ name: "done", arguments: { summary: "looked", evidence: ["read it"] } }],
  usage: { inputTokens: input, outputTokens: output },
});

describe("budgets", () => {
  it("halts a child on its own share while the parent and its siblings stand untouched, ledgers exact", async () => {
    const db = getDb();
    const [orchestrator, coder, reviewer, tester] = await Promise.all(["orchestrator", "coder", "reviewer", "tester"].map((role) => makeAgent(undefined, role)));
    const team = await createBudget(db, null, { ownerId: orchestrator.id, allowance: 5000, label: "team" }, clock);
    const fund = (owner: { id: string }, allowance: number) => createBudget(db, orchestrator, { ownerId: owner.id, parentId: team.id, allowance }, clock);
    const coderBudget = await fund(coder, 100);
    const reviewerBudget = await fund(reviewer, 100);
    const testerBudget = await fund(tester, 150);

    const root = makeScratchRepo();
    const env = { tools: scratchTools({ quick: true }), root, task: FIX_TASK, system: CODER_SYSTEM, clock };
    const coderRun = await startRun(db, { ...env, agent: coder, client: scriptedClient(FIX_SCRIPT), budgetId: coderBudget.id });
    // The first call (150 tokens) crosses the 100-token line; the halt comes at the next boundary, never mid-turn.
    expect(coderRun.result).toEqual({ status: "halted", budgetId: coderBudget.id, allowance: 100, budgetSpent: 150, turns: 1, spent: 150 });
    const coderKinds = (await loadRunEvents(db, coderRun.runId)).map((e) => e.kind);
    expect(coderKinds.slice(-3)).toEqual(["ToolDispatched", "ToolReturned", "BudgetExhausted"]);
    expect(coderKinds).not.toContain("AgentFinished");

    const reviewerRun = await startRun(db, { ...env, agent: reviewer, client: scriptedClient([finish(40, 20)]), budgetId: reviewerBudget.id });
    const testerRun = await startRun(db, {
      ...env,
      agent: tester,
      client: scriptedClient([{ toolCalls: [{ name: "run_tests" }], usage: { inputTokens: 70, outputTokens: 20 } }, finish(25, 5)]),
      budgetId: testerBudget.id,
    });
    expect(reviewerRun.result).toMatchObject({ status: "done", spent: 60 });
    expect(testerRun.result).toMatchObject({ status: "done", spent: 120 });

    expect(await budgetSpent(db, coderBudget.id)).toBe(150);
    expect(await budgetSpent(db, reviewerBudget.id)).toBe(60);
    expect(await budgetSpent(db, testerBudget.id)).toBe(120);
    expect(await budgetSpent(db, team.id)).toBe(330);
    const bill = await loadBill(db);
    const ledger = (id: string) => bill.budgets.find((b) => b.budgetId === id);
    expect(ledger(team.id)).toMatchObject({ allowance: 5000, spent: 330, left: 4670, exhausted: false, parentId: null });
    expect(ledger(coderBudget.id)).toMatchObject({ allowance: 100, spent: 150, left: -50, exhausted: true, parentId: team.id });
    expect(ledger(reviewerBudget.id)).toMatchObject({ allowance: 100, spent: 60, left: 40, exhausted: false });
    expect(ledger(testerBudget.id)).toMatchObject({ allowance: 150, spent: 120, left: 30, exhausted: false });
    expect(bill.runs.find((r) => r.runId === coderRun.runId)).toMatchObject({ status: "halted", tokens: 150 });
  });

  it("resumes a halted run once topped up, to the same end as a run that never halted", async () => {
    const db = getDb();
    const human = await makeHuman();
    const coder = await makeAgent();
    const budget = await createBudget(db, human, { ownerId: coder.id, allowance: 300 }, clock);
    const root = makeScratchRepo();
    const env = { tools: scratchTools({ quick: true }), root, clock };
    const { runId, result } = await startRun(db, { ...env, agent: coder, task: FIX_TASK, system: CODER_SYSTEM, client: scriptedClient(FIX_SCRIPT), budgetId: budget.id });
    expect(result).toMatchObject({ status: "halted", turns: 2, budgetSpent: 325 });
    const halted = (await loadRunEvents(db, runId)).length;
    // Still out of budget: the halt is reported again but not journalled twice.
    expect(await resumeRun(db, runId, { ...env, client: scriptedClient(FIX_SCRIPT) })).toMatchObject({ status: "halted", budgetSpent: 325 });
    expect(await loadRunEvents(db, runId)).toHaveLength(halted);

    await setAllowance(db, human, budget.id, { allowance: 2000 }, clock);
    const resumed = await resumeRun(db, runId, { ...env, client: scriptedClient(FIX_SCRIPT) });
    expect(resumed).toEqual({ status: "done", summary: "parse('') returns []", evidence: ["node --test: 2 passed, 0 failed"], turns: 6, spent: 1205 });
    const kinds = (await loadRunEvents(db, runId)).map((e) => e.kind);
    expect(kinds.filter((k) => k === "ModelCalled")).toHaveLength(6);
    expect(kinds.filter((k) => k === "BudgetExhausted")).toHaveLength(1);
    expect(kinds.indexOf("BudgetExhausted")).toBe(11);
    expect(await budgetSpent(db, budget.id)).toBe(1205);
  });

  it("never promises more than the parent holds, and lets agents subdivide only what they own", async () => {
    const db = getDb();
    const [lead, worker] = await Promise.all([makeAgent(), makeAgent()]);
    const parent = await createBudget(db, null, { ownerId: lead.id, allowance: 1000 }, clock);
    await createBudget(db, lead, { ownerId: worker.id, parentId: parent.id, allowance: 600 }, clock);
    await expect(createBudget(db, lead, { ownerId: worker.id, parentId: parent.id, allowance: 401 }, clock)).rejects.toMatchObject({
      code: "over_allocated",
      extra: { available: 400 },
    });
    await expect(createBudget(db, worker, { ownerId: worker.id, parentId: parent.id, allowance: 10 }, clock)).rejects.toMatchObject({ kind: "forbidden" });
    await expect(createBudget(db, worker, { ownerId: worker.id, allowance: 10 }, clock)).rejects.toBeInstanceOf(QuorumError);
    await expect(setAllowance(db, null, parent.id, { allowance: 500 }, clock)).rejects.toMatchObject({ code: "under_children", extra: { promised: 600 } });
    const other = await makeAgent();
    const elsewhere = await createBudget(db, null, { ownerId: other.id, allowance: 50 }, clock);
    await expect(
      startRun(db, { agent: worker, client: scriptedClient([]), tools: [], root: makeScratchRepo(), task: "t", system: "s", budgetId: elsewhere.id }),
    ).rejects.toMatchObject({ kind: "forbidden" });
  });
});

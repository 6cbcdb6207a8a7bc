// Replay determinism: a run re-lived from its journal alone yields the same events but ids and times —
// recorded tool errors, retries, a failed model call, a halt and a stop included — and a doctored
// journal is caught at the first event that differs.
import { describe, expect, it } from "vitest";
import { getDb } from "../db/client";
import { manualClock } from "../domain/clock";
import { loadRunEvents, type JournalRecord } from "../domain/journal/load";
import type { ToolReturnedData } from "../domain/runs/run-events";
import { makeAgent } from "../test/helpers";
import { createBudget } from "../domain/budgets/create";
import { setAllowance } from "../domain/budgets/set-allowance";
import { scriptedClient, type ScriptEntry } from "./model/scripted";
import { replayRun } from "./replay";
import { resumeRun } from "./resume";
import { startRun } from "./run";
import { requestStop } from "../domain/runs/request-stop";
import { CODER_SYSTEM, FIX_SCRIPT, FIX_TASK, makeScratchRepo, scratchTools } from "../test/fixtures/runtime";

const clock = manualClock();

/** A run with every kind of trouble the journal must carry: each kind of tool error, a retry, a model failure, a halt, a stop. */
async function troubledRun(): Promise<string> {
  const db = getDb();
  const agent = await makeAgent();
  const budget = await createBudget(db, null, { ownerId: agent.id, allowance: 400 }, clock);
  const script: ScriptEntry[] = [
    {
      toolCalls: [{ name: "read_file", arguments: { path: "../outside.txt" } }, { name: "read_file", arguments: { path: 7 } }, { name: "run_tests" }],
      usage: { inputTokens: 100, outputTokens: 20 },
    },
    { error: "503: overloaded" },
    { text: "Tests fail on the empty string.", usage: { inputTokens: 150, outputTokens: 10 } },
    ...FIX_SCRIPT.slice(3),
  ];
  const root = makeScratchRepo();
  const env = { tools: scratchTools({ flaky: true, quick: true }), root, clock };
  const runId = `run_troubled_${Date.now()}`;
  await expect(startRun(db, { ...env, agent, client: scriptedClient(script), task: FIX_TASK, system: CODER_SYSTEM, budgetId: budget.id, runId })).rejects.toThrow(
    "503: overloaded",
  );
  await requestStop(db, null, runId, { reason: "hold on" }, clock);
  // Turn 2 is answered (prose), then the stop is honoured; resumed, turn 3 crosses the budget; topped up, it ends.
  expect(await resumeRun(db, runId, { ...env, client: scriptedClient(script) })).toMatchObject({ status: "stopped", turns: 2 });
  expect(await resumeRun(db, runId, { ...env, client: scriptedClient(script) })).toMatchObject({ status: "halted", turns: 3 });
  await setAllowance(db, null, budget.id, { allowance: 5000 }, clock);
  expect(await resumeRun(db, runId, { ...env, client: scriptedClient(script) })).toMatchObject({ status: "done", turns: 5 });
  return runId;
}

describe("replay", () => {
  it("re-lives a clean run with identical events", async () => {
    const { runId, result } = await startRun(getDb(), {
      agent: await makeAgent(),
      client: scriptedClient(FIX_SCRIPT),
      tools: scratchTools({ quick: true }),
      root: makeScratchRepo(),
      task: FIX_TASK,
      system: CODER_SYSTEM,
      clock,
    });
    const events = await loadRunEvents(getDb(), runId);
    const report = await replayRun(events);
    expect(report).toEqual({ runId, identical: true, recorded: events.length, replayed: events.length, result, ended: "finished" });
  });

  it("reproduces recorded tool errors, a retry, a model failure, a halt and a stop, identically", async () => {
    const runId = await troubledRun();
    const events = await loadRunEvents(getDb(), runId);
    const kinds = events.map((e) => e.kind);
    for (const kind of ["ToolRetried", "ModelFailed", "BudgetExhausted", "StopRequested", "RunStopped", "AgentFinished"]) expect(kinds).toContain(kind);
    const errors = events.filter((e) => e.kind === "ToolReturned" && (e.data as ToolReturnedData).observation.is_error);
    expect(errors).toHaveLength(3);
    const report = await replayRun(events);
    expect(report.divergence).toBeUndefined();
    expect(report).toMatchObject({ identical: true, ended: "finished", result: { status: "done", turns: 5 } });
    // The operator's request is input, not output: everything else is compared.
    expect(report.recorded).toBe(events.length - 1);
  });

  it("catches a doctored journal at the first event that differs", async () => {
    const runId = await troubledRun();
    const events = await loadRunEvents(getDb(), runId);
    // Pretend the runner's death was not transient: the loop would not have retried.
    const doctored: JournalRecord[] = events.map((e) => {
      const data = e.data as ToolReturnedData;
      if (e.kind !== "ToolReturned" || !data.observation.is_error || !data.observation.transient) return e;
      return { ...e, data: { ...data, observation: { ...data.observation, transient: false } } };
    });
    const report = await replayRun(doctored);
    expect(report.identical).toBe(false);
    const retried = events.filter((e) => e.kind !== "StopRequested").findIndex((e) => e.kind === "ToolRetried");
    expect(report.divergence).toMatchObject({ index: retried, expected: { kind: "ToolRetried" }, actual: { kind: "ModelCalled" } });
  });

  it("replays a recording that ends mid-run up to its end", async () => {
    const { runId } = await startRun(getDb(), {
      agent: await makeAgent(),
      client: scriptedClient(FIX_SCRIPT),
      tools: scratchTools({ quick: true }),
      root: makeScratchRepo(),
      task: FIX_TASK,
      system: CODER_SYSTEM,
      clock,
    });
    const cut = (await loadRunEvents(getDb(), runId)).slice(0, 9);
    expect(await replayRun(cut)).toMatchObject({ identical: true, recorded: 9, ended: "recording_ended", result: null });
  });
});

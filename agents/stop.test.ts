// The operator stop: asked in-process (AbortSignal) or from anywhere else (a StopRequested event),
// honoured at the next turn boundary, never mid-turn; a stopped run resumes cleanly.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { connect, getDb } from "../db/client";
import { manualClock } from "../domain/clock";
import { loadRunEvents } from "../domain/journal/load";
import { makeAgent, makeHuman } from "../test/helpers";
import { scriptedClient } from "./model/scripted";
import { resumeRun } from "./resume";
import { startRun } from "./run";
import { requestStop } from "../domain/runs/request-stop";
import { makeScratchRepo } from "../test/fixtures/runtime";
import { defineTool } from "./tools/tool";

const clock = manualClock();
const script = [
  {
    toolCalls: [
      { name: "work", arguments: { step: 1 } },
      { name: "work", arguments: { step: 2 } },
    ],
  },
  { toolCalls: [{ name: "work", arguments: { step: 3 } }] },
  { toolCalls: [{ name: "done", arguments: { summary: "all three steps", evidence: ["steps 1-3"] } }] },
];

/** A tool whose first step triggers `onFirst`; it records every step it runs. */
function workTool(steps: number[], onFirst: () => Promise<void>) {
  return defineTool({
    name: "work",
    description: "does one step",
    parameters: z.object({ step: z.number() }),
    idempotent: true,
    async execute({ step }) {
      steps.push(step);
      if (step === 1) await onFirst();
      return { step };
    },
  });
}

describe("operator stop", () => {
  it("stops at the turn boundary when signalled in process — the turn in flight completes — and resumes cleanly", async () => {
    const agent = await makeAgent();
    const controller = new AbortController();
    const steps: number[] = [];
    const tools = [workTool(steps, async () => controller.abort())];
    const root = makeScratchRepo();
    const { runId, result } = await startRun(getDb(), { agent, client: scriptedClient(script), tools, root, task: "t", system: "s", signal: controller.signal, clock });
    expect(result).toMatchObject({ status: "stopped", reason: "stopped in process", turns: 1 });
    expect(steps).toEqual([1, 2]);
    expect((await loadRunEvents(getDb(), runId)).map((e) => e.kind).slice(-3)).toEqual(["ToolDispatched", "ToolReturned", "RunStopped"]);
    const resumed = await resumeRun(getDb(), runId, { client: scriptedClient(script), tools, root, clock });
    expect(resumed).toMatchObject({ status: "done", turns: 3 });
    expect(steps).toEqual([1, 2, 3]);
  });

  it("honours a stop requested from another connection, through the journal", async () => {
    const agent = await makeAgent();
    const human = await makeHuman();
    const elsewhere = connect(process.env.DATABASE_URL!, { max: 1 });
    const steps: number[] = [];
    let runId = "";
    const tools = [
      workTool(steps, async () => {
        await requestStop(elsewhere.db, human, runId, { reason: "wrong approach" }, clock);
      }),
    ];
    runId = `run_stop_${Date.now()}`;
    try {
      const { result } = await startRun(getDb(), { agent, client: scriptedClient(script), tools, root: makeScratchRepo(), task: "t", system: "s", runId, clock });
      expect(result).toMatchObject({ status: "stopped", reason: "an operator asked to stop", turns: 1 });
    } finally {
      await elsewhere.close();
    }
    const events = await loadRunEvents(getDb(), runId);
    const requested = events.find((e) => e.kind === "StopRequested")!;
    expect(requested).toMatchObject({ actor: human.id, data: { reason: "wrong approach" } });
    // Asked mid-turn, honoured after it: step 2 still ran and was journalled.
    expect(events.map((e) => e.kind).slice(-4)).toEqual(["ToolReturned", "ToolDispatched", "ToolReturned", "RunStopped"]);
    expect(steps).toEqual([1, 2]);
  });

  it("lets only humans, the harness and the run's own agent stop a run that has not finished", async () => {
    const agent = await makeAgent();
    const stranger = await makeAgent();
    const { runId } = await startRun(getDb(), {
      agent,
      client: scriptedClient([script[2]]),
      tools: [],
      root: makeScratchRepo(),
      task: "t",
      system: "s",
      clock,
    });
    await expect(requestStop(getDb(), stranger, runId, { reason: "mine now" }, clock)).rejects.toMatchObject({ kind: "forbidden" });
    await expect(requestStop(getDb(), null, runId, { reason: "late" }, clock)).rejects.toMatchObject({ code: "run_finished" });
    await expect(requestStop(getDb(), null, "run_nope", { reason: "who" }, clock)).rejects.toMatchObject({ kind: "not_found" });
  });
});

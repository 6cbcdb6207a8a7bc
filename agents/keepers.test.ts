// A run's wall clock (QUORUM_RUN_MAX_MINUTES): a drive past its minutes stops at the next turn boundary with
// the reason, resumable like any stop; a resumed drive gets its minutes again. A replay reproduces the stop.
import { describe, expect, it } from "vitest";
import { getDb } from "../db/client";
import { manualClock } from "../domain/clock";
import { loadRunEvents } from "../domain/journal/load";
import { makeAgent } from "../test/helpers";
import { CODER_SYSTEM, FIX_TASK, makeScratchRepo, scratchTools } from "../test/fixtures/runtime";
import { scriptedClient } from "./model/scripted";
import { replayRun } from "./replay";
import { resumeRun } from "./resume";
import { startRun } from "./run";
import { defineTool } from "./tools/tool";
import { z } from "zod";

describe("the wall-clock limit", () => {
  it("stops a run at the first boundary past its minutes, and a resumed drive carries it on", async () => {
    const clock = manualClock();
    // Each call of this tool takes (on the injected clock) two minutes.
    const slow = defineTool({
      name: "think_hard",
      description: "takes two minutes",
      parameters: z.object({}),
      idempotent: true,
      async execute() {
        clock.advance(120_000);
        return { thought: "deep" };
      },
    });
    const think = { toolCalls: [{ name: "think_hard", arguments: {} }] };
    const done = { toolCalls: [{ name: "done", arguments: { summary: "thought it through", evidence: ["two thoughts"] } }] };
    const agent = await makeAgent();
    const root = makeScratchRepo();
    const environment = { tools: [...scratchTools(), slow], root, clock, maxMinutes: 3 };
    const { runId, result } = await startRun(getDb(), { ...environment, agent, client: scriptedClient([think, think, think, done]), task: FIX_TASK, system: CODER_SYSTEM });
    // Two minutes after the first call: under three, so a second turn; four after it: stopped.
    expect(result).toMatchObject({ status: "stopped", reason: "ran past its 3-minute limit (QUORUM_RUN_MAX_MINUTES)", turns: 2 });
    const again = await resumeRun(getDb(), runId, { ...environment, client: scriptedClient([think, think, think, done]) });
    expect(again).toMatchObject({ status: "done", turns: 4 });
    expect((await loadRunEvents(getDb(), runId)).filter((e) => e.kind === "RunStopped")).toHaveLength(1);
    expect(await replayRun(await loadRunEvents(getDb(), runId))).toMatchObject({ identical: true, ended: "finished" });
  });
});

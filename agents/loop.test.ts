// The loop through a scripted model: each stop condition, the nudge, tool errors as observations,
// retries, mail and principles in the context, and a model failure that leaves the run resumable.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { getDb } from "../db/client";
import { manualClock } from "../domain/clock";
import { loadRunEvents } from "../domain/journal/load";
import type { ToolDispatchedData, ToolReturnedData } from "../domain/runs/run-events";
import { makeAgent } from "../test/helpers";
import { NUDGE } from "./context";
import { ModelError } from "./model/model-client";
import { scriptedClient, type ScriptEntry } from "./model/scripted";
import { resumeRun } from "./resume";
import { startRun, type RunOptions } from "./run";
import { CODER_SYSTEM, FIX_SCRIPT, FIX_TASK, makeScratchRepo, scratchTools } from "../test/fixtures/runtime";
import { defineTool, ToolFailure } from "./tools/tool";

const kinds = async (runId: string) => (await loadRunEvents(getDb(), runId)).map((e) => e.kind);
const turn = (...tail: string[]) => ["ModelCalled", "ModelResponded", "BudgetDebited", ...tail];
const toolTurn = turn("ToolDispatched", "ToolReturned");
const done = (summary = "finished") => ({ toolCalls: [{ name: "done", arguments: { summary, evidence: ["it works"] } }] });
const read = { toolCalls: [{ name: "read_file", arguments: { path: "parser.js" } }] };

async function run(script: ScriptEntry[], options: Partial<RunOptions> = {}) {
  const agent = await makeAgent();
  const client = scriptedClient(script);
  const root = options.root ?? makeScratchRepo();
  const { runId, result } = await startRun(getDb(), { agent, client, tools: scratchTools(), root, task: FIX_TASK, system: CODER_SYSTEM, clock: manualClock(), ...options });
  return { agent, client, root, runId, result };
}

describe("the loop", () => {
  it("fixes the scratch repository and ends with done, journalling every step in order", async () => {
    const { client, root, runId, result } = await run(FIX_SCRIPT);
    expect(result).toEqual({ status: "done", summary: "parse('') returns []", evidence: ["node --test: 2 passed, 0 failed"], turns: 6, spent: 1205 });
    expect(await kinds(runId)).toEqual(["RunStarted", ...toolTurn, ...toolTurn, ...turn(), ...toolTurn, ...toolTurn, ...turn("AgentFinished")]);
    expect(readFileSync(path.join(root, "parser.js"), "utf8")).toContain('if (input === "") return [];');
    const returned = (await loadRunEvents(getDb(), runId)).filter((e) => e.kind === "ToolReturned").map((e) => e.data as ToolReturnedData);
    expect(returned.map((r) => r.tool)).toEqual(["read_file", "run_tests", "edit_file", "run_tests"]);
    expect(returned[1].observation).toMatchObject({ is_error: false, result: { exitCode: 1, passed: false } });
    expect(returned[3].observation).toMatchObject({ is_error: false, result: { exitCode: 0, passed: true } });
    // The prose answer of turn 3 earns exactly one nudge, seen by the next call and only by it.
    const nudges = client.calls.map((c) => c.messages.filter((m) => m.content === NUDGE).length);
    expect(nudges).toEqual([0, 0, 0, 1, 1, 1]);
    expect(client.calls[0].tools.map((t) => t.name)).toEqual(["read_file", "edit_file", "run_tests", "done"]);
  });

  it("ends as inconclusive on a second prose answer in a row, and a tool call in between resets the count", async () => {
    const drift = await run([{ text: "Thinking." }, { text: "Still thinking." }]);
    expect(drift.result).toMatchObject({ status: "inconclusive", turns: 2 });
    expect(await kinds(drift.runId)).toEqual(["RunStarted", ...turn(), ...turn("AgentFinished")]);
    const recovered = await run([{ text: "Thinking." }, read, { text: "Hmm." }, done()]);
    expect(recovered.result).toMatchObject({ status: "done", turns: 4 });
  });

  it("stops at the turn cap with out_of_turns", async () => {
    const { runId, result } = await run([read, read, read], { maxTurns: 2 });
    expect(result).toMatchObject({ status: "out_of_turns", turns: 2 });
    expect((await kinds(runId)).at(-1)).toBe("AgentFinished");
    expect((await kinds(runId)).filter((k) => k === "ModelCalled")).toHaveLength(2);
  });

  it("returns a bad call, an unknown tool and a path outside the root as observations, and goes on", async () => {
    const { client, runId, result } = await run([
      {
        toolCalls: [
          { name: "read_file", arguments: { path: 42 } },
          { name: "launch_rockets", arguments: {} },
          { name: "read_file", arguments: { path: "../../etc/passwd" } },
          { name: "done", arguments: { summary: "" } },
        ],
      },
      done(),
    ]);
    expect(result.status).toBe("done");
    const events = await loadRunEvents(getDb(), runId);
    const observations = events.filter((e) => e.kind === "ToolReturned").map((e) => (e.data as ToolReturnedData).observation);
    expect(observations.map((o) => o.is_error)).toEqual([true, true, true, true]);
    expect(observations.map((o) => (o as { reason: string }).reason)).toEqual([
      expect.stringMatching(/^invalid arguments for read_file: .*expected string/),
      "there is no tool named 'launch_rockets'",
      "the path '../../etc/passwd' is outside the working directory",
      expect.stringMatching(/^done needs a non-empty summary/),
    ]);
    // Invalid calls are refused before dispatch; only the guarded read was dispatched (and refused inside).
    expect(events.filter((e) => e.kind === "ToolDispatched").map((e) => (e.data as ToolDispatchedData).args)).toEqual([{ path: "../../etc/passwd" }]);
    expect(client.calls[1].messages.filter((m) => m.role === "tool")).toHaveLength(4);
  });

  it("retries a transient error of an idempotent tool by policy, journalling each try, and shows the model only the last", async () => {
    const { client, runId } = await run([{ toolCalls: [{ name: "run_tests" }] }, done()], { tools: scratchTools({ flaky: true }), retryAttempts: 1 });
    const events = await loadRunEvents(getDb(), runId);
    expect(events.map((e) => e.kind).slice(4, 8)).toEqual(["ToolDispatched", "ToolReturned", "ToolRetried", "ToolReturned"]);
    const [first, second] = events.filter((e) => e.kind === "ToolReturned").map((e) => e.data as ToolReturnedData);
    expect(first).toMatchObject({ attempt: 1, observation: { is_error: true, transient: true, reason: expect.stringContaining("exit code 137") } });
    expect(second).toMatchObject({ attempt: 2, observation: { is_error: false, result: { exitCode: 1 } } });
    const seen = client.calls[1].messages.filter((m) => m.role === "tool");
    expect(seen).toHaveLength(1);
    expect(JSON.parse(seen[0].content)).toEqual(second.observation);
  });

  it("does not retry without a policy, nor ever a tool that is not idempotent", async () => {
    const noPolicy = await run([{ toolCalls: [{ name: "run_tests" }] }, done()], { tools: scratchTools({ flaky: true, quick: true }), retryAttempts: 0 });
    expect(await kinds(noPolicy.runId)).not.toContain("ToolRetried");
    let tries = 0;
    const push = defineTool({
      name: "push",
      description: "pushes",
      parameters: z.object({}),
      idempotent: false,
      async execute() {
        tries++;
        throw new ToolFailure("the remote hung up", "push again", { transient: true });
      },
    });
    const unsafe = await run([{ toolCalls: [{ name: "push" }] }, done()], { tools: [push], retryAttempts: 3 });
    expect(tries).toBe(1);
    expect(await kinds(unsafe.runId)).not.toContain("ToolRetried");
  });

  it("puts principles and mail in the context; principles' tokens are debited like any other", async () => {
    const principles = ["Run the whole suite before calling done.", "Never edit a test to make it pass."];
    const mail = { messageId: 1, room: "general", from: "x", fromName: "ada", performative: "INFORM", taskId: null, body: "the suite is node --test" };
    const plain = await run([done()]);
    const taught = await run([done()], { principles, inbox: async (_tx, who) => (who.turn === 1 ? [mail] : []) });
    const system = taught.client.calls[0].messages[0].content;
    expect(system.startsWith("Principles of this team")).toBe(true);
    expect(taught.client.calls[0].messages.at(-1)!.content).toContain("from ada (INFORM, #general): the suite is node --test");
    const called = (await loadRunEvents(getDb(), taught.runId)).find((e) => e.kind === "ModelCalled")!;
    expect(called.data).toMatchObject({ turn: 1, mail: [mail] });
    // The scripted client estimates usage from what it was shown: the extra input is the principles and the mail.
    const extra = taught.result.spent - plain.result.spent;
    const shown = (text: string) => Math.ceil(text.length / 4);
    expect(extra).toBeGreaterThanOrEqual(shown(principles.join("\n")));
  });

  it("journals a failed model call, throws it, and resumes at that very call", async () => {
    const agent = await makeAgent();
    const root = makeScratchRepo();
    const script = [{ error: "overloaded, try later" }, done("second time lucky")];
    const base = { agent, tools: scratchTools(), root, task: FIX_TASK, system: CODER_SYSTEM, runId: `run_fail_${Date.now()}` };
    await expect(startRun(getDb(), { ...base, client: scriptedClient(script) })).rejects.toThrow(ModelError);
    expect(await kinds(base.runId)).toEqual(["RunStarted", "ModelCalled", "ModelFailed"]);
    const result = await resumeRun(getDb(), base.runId, { client: scriptedClient(script), tools: scratchTools(), root });
    expect(result).toMatchObject({ status: "done", summary: "second time lucky", turns: 1 });
    expect(await kinds(base.runId)).toEqual(["RunStarted", "ModelCalled", "ModelFailed", "ModelResponded", "BudgetDebited", "AgentFinished"]);
  });
});

// `quorum replay RUN` and `quorum diagnose RUN | --since …` on runs in the database, in process and as the real CLI.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { getDb } from "../db/client";
import { scriptedClient } from "../agents/model/scripted";
import { startRun } from "../agents/run";
import { CODER_SYSTEM, FIX_SCRIPT, FIX_TASK, makeScratchRepo, scratchTools } from "../test/fixtures/runtime";
import { makeAgent } from "../test/helpers";
import { diagnoseCommand } from "./diagnose";
import { replayCommand } from "./replay";

const repo = fileURLToPath(new URL("..", import.meta.url));

async function fixRun(options: { flaky?: boolean } = {}) {
  const { runId } = await startRun(getDb(), {
    agent: await makeAgent(),
    client: scriptedClient(FIX_SCRIPT),
    tools: scratchTools({ ...options, quick: true }),
    root: makeScratchRepo(),
    task: FIX_TASK,
    system: CODER_SYSTEM,
  });
  return runId;
}

function capture() {
  const lines: string[] = [];
  return { lines, print: (line: string) => void lines.push(line) };
}

describe("quorum replay and diagnose", () => {
  it("replays a recorded run and reports it identical", async () => {
    const runId = await fixRun();
    const out = capture();
    expect(await replayCommand(getDb(), runId, out.print)).toBe(0);
    expect(out.lines).toEqual([
      `run ${runId}: replayed 28 events against 28 recorded`,
      `result: done — "parse('') returns []" (6 turns, 1205 tokens; 1 piece(s) of evidence)`,
      "identical: yes (every event but ids and timestamps)",
    ]);
    const missing = capture();
    expect(await replayCommand(getDb(), "run_nowhere", missing.print)).toBe(1);
    expect(missing.lines).toEqual(["quorum: no run run_nowhere"]);
  });

  it("diagnoses an absorbed flake as a repeated step (FM-1.3), finds a clean run clean, and says what it cannot find", async () => {
    const flaky = await fixRun({ flaky: true });
    const out = capture();
    expect(await diagnoseCommand(getDb(), { run: flaky }, out.print)).toBe(2);
    expect(out.lines[0]).toMatch(new RegExp(`^run ${flaky}: 1 finding in \\d+ events$`));
    expect(out.lines[1]).toMatch(
      /^- FM-1\.3 Step repetition \(low; specification and system design\): run_tests failed transiently in .*'s run \(the test runner died \(exit code 137, SIGKILL\) before it finished\) and was run again 1 time until it passed: the flake was hidden, not fixed \(events \d+, \d+, \d+\)$/,
    );
    const clean = capture();
    expect(await diagnoseCommand(getDb(), { run: await fixRun() }, clean.print)).toBe(0);
    expect(clean.lines).toEqual([expect.stringMatching(/^run run_\w+: clean — no failure mode in 16 events$/)]);
    const missing = capture();
    expect(await diagnoseCommand(getDb(), { flight: "999" }, missing.print)).toBe(1);
    expect(missing.lines).toEqual(["quorum: no flight 999"]);
  });

  it("runs as the real command line against the database", { timeout: 120_000 }, async () => {
    const runId = await fixRun({ flaky: true });
    const quorum = (...args: string[]) =>
      new Promise<{ status: number | null; stdout: string }>((resolve) => {
        const child = spawn(process.execPath, ["--import", "tsx", "bin/quorum.ts", ...args], { cwd: repo, env: process.env });
        let stdout = "";
        child.stdout.on("data", (chunk) => (stdout += chunk));
        child.on("close", (status) => resolve({ status, stdout }));
      });
    const [replay, diagnosis, bySince, wrong] = await Promise.all([
      quorum("replay", runId),
      quorum("diagnose", runId),
      quorum("diagnose", "--since", "0"),
      quorum("diagnose", "--run", runId, "--flight", "1"),
    ]);
    expect(replay.stdout).toContain("identical: yes");
    expect(replay.status).toBe(0);
    expect(diagnosis.stdout).toContain("- FM-1.3 Step repetition (low;");
    expect(diagnosis.status).toBe(2);
    expect(bySince.stdout).toMatch(/^since event 0: \d+ findings? in \d+ events/);
    expect(bySince.status).toBe(2);
    // Two scopes at once are a mistake: the usage, exit 1.
    expect(wrong.status).toBe(1);
  });
});

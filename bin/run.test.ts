// `quorum run resume` and `quorum run stop`: a coder's run halted on its budget is topped up and carried
// to done from its journal; runs with tools only a role's step provides are refused with a reason.
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createScratchRepo } from "../agents/demo/scratch-repo";
import { scriptedClient } from "../agents/model/scripted";
import { startRun } from "../agents/run";
import { coderScript } from "../agents/team/scripts";
import { editFileTool } from "../agents/tools/edit-file";
import { readFileTool } from "../agents/tools/read-file";
import { runTestsTool } from "../agents/tools/run-tests";
import { defineTool } from "../agents/tools/tool";
import { getDb } from "../db/client";
import { createBudget } from "../domain/budgets/create";
import { setAllowance } from "../domain/budgets/set-allowance";
import { systemClock } from "../domain/clock";
import { loadRunEvents } from "../domain/journal/load";
import { makeAgent } from "../test/helpers";
import { resumeCommand, stopCommand } from "./run";

function capture() {
  const lines: string[] = [];
  return { lines, print: (line: string) => void lines.push(line) };
}

const suitePasses = (repo: string) => {
  try {
    execFileSync("node", ["--test"], { cwd: repo, stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

describe("quorum run", () => {
  it("resumes a coder's run halted on its budget, once a human topped it up, to a passing suite", async () => {
    const db = getDb();
    const repo = createScratchRepo(mkdtempSync(join(tmpdir(), "quorum-resume-")));
    const coder = await makeAgent(undefined, "coder");
    const budget = await createBudget(db, null, { ownerId: coder.id, allowance: 1 }, systemClock);
    const tools = [readFileTool, editFileTool, runTestsTool({ command: ["node", "--test"] })];
    const { runId, result } = await startRun(db, {
      agent: coder,
      client: scriptedClient(coderScript()),
      tools,
      root: repo,
      budgetId: budget.id,
      task: "fix parse('')",
      system: "You are the coder.",
      clock: systemClock,
    });
    expect(result.status).toBe("halted");
    expect(suitePasses(repo)).toBe(false);

    await setAllowance(db, null, budget.id, { allowance: 1_000_000 }, systemClock);
    const out = capture();
    expect(await resumeCommand(db, runId, repo, out.print)).toBe(0);
    expect(out.lines.join("\n")).toMatch(/^run run_\w+: done — "parse\(''\) now returns \[\]/);
    expect(suitePasses(repo)).toBe(true);
    const kinds = (await loadRunEvents(db, runId)).map((e) => e.kind);
    expect(kinds.filter((k) => k === "BudgetExhausted")).toHaveLength(1);
    expect(kinds.at(-1)).toBe("AgentFinished");
  });

  it("refuses a run whose tools only its role's step provides, and a stop without a reason", async () => {
    const db = getDb();
    const agent = await makeAgent(undefined, "coder");
    const deploy = defineTool({ name: "deploy", description: "ships it", parameters: z.object({}), idempotent: false, execute: async () => ({ shipped: true }) });
    const stopNow = new AbortController();
    stopNow.abort();
    const { runId, result } = await startRun(db, {
      agent,
      client: scriptedClient([]),
      tools: [deploy],
      root: tmpdir(),
      task: "t",
      system: "s",
      signal: stopNow.signal,
      clock: systemClock,
    });
    expect(result.status).toBe("stopped");
    await expect(resumeCommand(db, runId, tmpdir(), () => {})).rejects.toMatchObject({
      kind: "invalid",
      message: expect.stringMatching(/used deploy, which only its role's step provides/),
    });

    const out = capture();
    expect(await stopCommand(db, runId, undefined, out.print)).toBe(1);
    expect(out.lines).toEqual(["quorum: say why with --reason TEXT"]);
    expect(await stopCommand(db, runId, "not needed any more", out.print)).toBe(0);
    expect((await loadRunEvents(db, runId)).filter((e) => e.kind === "StopRequested")).toMatchObject([{ data: { reason: "not needed any more" } }]);
  });
});

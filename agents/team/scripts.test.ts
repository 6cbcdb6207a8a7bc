// The scripted roles report what their tools returned: a coder whose test run still fails says so, with
// the real exit code as evidence, instead of a fixed "the suite passes".
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { makeAgent } from "../../test/helpers";
import { createScratchRepo } from "../demo/scratch-repo";
import { scriptedClient } from "../model/scripted";
import { startRun } from "../run";
import { editFileTool } from "../tools/edit-file";
import { diffAsEvidence, EVIDENCE_DIFF_CHARS } from "./workspace";
import { readFileTool } from "../tools/read-file";
import { runTestsTool } from "../tools/run-tests";
import { coderScript, testerScript } from "./scripts";

async function codeOn(repo: string, script = coderScript()) {
  const agent = await makeAgent();
  const { result } = await startRun(getDb(), {
    agent,
    client: scriptedClient(script),
    tools: [readFileTool, editFileTool, runTestsTool({ command: ["node", "--test"], timeoutMs: 30_000 })],
    root: repo,
    task: "Make parse('') return no rows.",
    system: "You are the coder.",
  });
  return result;
}

describe("the scripted roles' reports", () => {
  it("say the suite passes only when run_tests exited 0", async () => {
    const result = await codeOn(createScratchRepo(mkdtempSync(join(tmpdir(), "quorum-script-"))));
    expect(result).toMatchObject({ status: "done", summary: "parse('') now returns []; the suite passes.", evidence: ["run_tests: exit code 0"] });
  });

  it("say the suite still fails, with its exit code, when another test fails", async () => {
    const repo = createScratchRepo(mkdtempSync(join(tmpdir(), "quorum-script-")));
    writeFileSync(join(repo, "test", "other.test.js"), 'import { test } from "node:test";\nimport assert from "node:assert/strict";\ntest("fails", () => assert.equal(1, 2));\n');
    const coder = await codeOn(repo);
    expect(coder).toMatchObject({ status: "done", evidence: ["run_tests: exit code 1"] });
    expect(coder.status === "done" && coder.summary).toBe("parse('') should now return [], but the suite still fails (exit code 1).");
    const tester = await codeOn(repo, testerScript());
    expect(tester).toMatchObject({ status: "done", summary: "Ran the full suite on the flight's branch: it fails.", evidence: ["run_tests: exit code 1"] });
  });
});

describe("a diff as evidence", () => {
  it("is whole when small, and cut at a file boundary saying what was left out when large", () => {
    const file = (name: string, lines: number) => `diff --git a/${name} b/${name}\n--- a/${name}\n+++ b/${name}\n@@ -0,0 +1,${lines} @@\n${"+line of text\n".repeat(lines)}`;
    const small = file("a.js", 3);
    expect(diffAsEvidence(small)).toBe(small);
    const large = [file("a.js", 3_000), file("b.js", 3_000), file("c.js", 3_000)].join("");
    const shown = diffAsEvidence(large);
    expect(shown.length).toBeLessThanOrEqual(EVIDENCE_DIFF_CHARS + 200);
    expect(shown).toContain("diff --git a/a.js");
    expect(shown).not.toContain("diff --git a/c.js");
    expect(shown).toMatch(/the diff goes on for \d+ more characters \(\d more files\): the task's branch holds it whole\.$/);
  });
});

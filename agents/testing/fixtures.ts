// Test fixtures of the runtime: a scratch repository whose parse('') fails its test, and the scripted
// run that fixes it (read, test, drift once, edit, test, done), with usage fixed for hand-computed bills.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ScriptEntry } from "../model/scripted";
import { editFileTool } from "../tools/edit-file";
import { readFileTool } from "../tools/read-file";
import { runTestsTool } from "../tools/run-tests";

export const PARSER_BROKEN = `export function parse(input) {
  return input.split(",").map((s) => s.trim());
}
`;

const PARSER_TEST = `import { test } from "node:test";
import assert from "node:assert/strict";
import { parse } from "./parser.js";

test("splits on commas", () => assert.deepEqual(parse("a, b"), ["a", "b"]));
test("parses the empty string to nothing", () => assert.deepEqual(parse(""), []));
`;

/** A fresh scratch repository; `flaky` makes the first test run die as if killed (exit 137). */
export function makeScratchRepo(): string {
  const root = mkdtempSync(path.join(tmpdir(), "quorum-scratch-"));
  writeFileSync(path.join(root, "package.json"), JSON.stringify({ type: "module" }));
  writeFileSync(path.join(root, "parser.js"), PARSER_BROKEN);
  writeFileSync(path.join(root, "parser.test.js"), PARSER_TEST);
  return root;
}

/**
 * The scratch repository's tools. `flaky`: the first test run dies with exit code 137. `quick`: a
 * 50 ms stand-in for the runner that passes once parse('') is guarded (for tests that fly many runs).
 */
export function scratchTools(options: { flaky?: boolean; quick?: boolean } = {}) {
  const runner = options.quick ? `sleep 0.05; grep -q 'input === ""' parser.js` : "exec node --test";
  const flake = options.flaky ? "if [ ! -f .flaked ]; then touch .flaked; exit 137; fi; " : "";
  const command = ["sh", "-c", flake + runner];
  return [readFileTool, editFileTool, runTestsTool({ command, timeoutMs: 30_000 })];
}

export const FIX_TASK = "Make the failing parser test pass: parse('') must return [].";
export const CODER_SYSTEM = "You are the coder. Use the tools; finish with done, citing the test output as evidence.";

/** Six calls: read, test (fails), prose (nudged), edit, test (passes), done. 1,205 tokens in all. */
export const FIX_SCRIPT: ScriptEntry[] = [
  { toolCalls: [{ name: "read_file", arguments: { path: "parser.js" } }], usage: { inputTokens: 120, outputTokens: 30 } },
  { toolCalls: [{ name: "run_tests" }], usage: { inputTokens: 150, outputTokens: 25 } },
  { text: "The empty string splits into one empty item; I should guard it.", usage: { inputTokens: 160, outputTokens: 10 } },
  {
    text: "Guarding the empty input.",
    toolCalls: [
      {
        name: "edit_file",
        arguments: { path: "parser.js", old_string: "  return input.split", new_string: '  if (input === "") return [];\n  return input.split' },
      },
    ],
    usage: { inputTokens: 200, outputTokens: 40, cachedTokens: 100 },
  },
  { toolCalls: [{ name: "run_tests" }], usage: { inputTokens: 230, outputTokens: 20 } },
  {
    toolCalls: [{ name: "done", arguments: { summary: "parse('') returns []", evidence: ["node --test: 2 passed, 0 failed"] } }],
    usage: { inputTokens: 190, outputTokens: 30 },
  },
];

export const FIX_SCRIPT_TOKENS = 1205;

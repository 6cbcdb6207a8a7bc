// The first flight's workpiece: a scratch git repository whose `parse('')` fails its test.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The first flight's goal: what the scratch repository's failing test asks for. */
export const DEMO_GOAL = "Make parse('') return [] so that the repository's test suite passes.";

const FILES: Record<string, string> = {
  "package.json": JSON.stringify({ name: "scratch-parser", private: true, type: "module", scripts: { test: "node --test" } }, null, 2),
  "src/parse.js": `// Parses comma-separated lines into rows of trimmed fields.
export function parse(text) {
  return text.split("\\n").map((line) => line.split(",").map((field) => field.trim()));
}
`,
  "test/parse.test.js": `import { test } from "node:test";
import assert from "node:assert/strict";
import { parse } from "../src/parse.js";

test("parses rows and trims fields", () => {
  assert.deepEqual(parse("a, b\\nc,d"), [["a", "b"], ["c", "d"]]);
});

test("an empty input has no rows", () => {
  assert.deepEqual(parse(""), []);
});
`,
  "README.md": "A tiny parser. `npm test` runs its tests.\n",
};

function git(cwd: string, args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** Creates the repository (one commit on `main`) and returns its path. */
export function createScratchRepo(parent: string, name = `scratch-${Date.now()}`): string {
  const dir = join(parent, name);
  for (const [path, content] of Object.entries(FILES)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  git(dir, ["init", "-q", "-b", "main"]);
  git(dir, ["add", "-A"]);
  git(dir, ["-c", "user.name=Quorum", "-c", "user.email=quorum@localhost", "commit", "-q", "-m", "A parser with a failing test"]);
  return dir;
}

// Which tests passed, read off what a test runner printed: TAP (node --test when piped, and many others),
// node --test's spec reporter, JUnit XML, pytest, go test (-json and -v) and cargo test. A run whose output
// is none of these is judged by its exit code alone, and says so. The runner is the repository's; nothing
// here asks it for another format.
import { z } from "zod";

export type TestFormat = "tap" | "node-spec" | "junit" | "pytest" | "go-json" | "go" | "cargo";

export interface TestResults {
  format: TestFormat;
  /** Whether passing tests are named: pytest's and go's plain output name only the failures. */
  namesPasses: boolean;
  passed: string[];
  failed: string[];
  skipped: string[];
  /** More names than are kept (MAX_NAMES each): the counts are whole, the lists are not. */
  truncated: boolean;
}

/** Names kept per list: every test of the suites flights work on, few enough for a model to read them in a tool result. */
export const MAX_NAMES = 500;

type Outcome = "pass" | "fail" | "skip";

class Tally {
  private readonly outcomes = new Map<string, Outcome>();
  constructor(
    private readonly format: TestFormat,
    private readonly namesPasses = true,
  ) {}
  /** A later outcome of the same name wins (a retried test, a summary line after the detail). */
  add(name: string, outcome: Outcome): void {
    // As long as a name may be on record (testName), NULs dropped: Postgres stores no NUL.
    const key = name.replaceAll("\u0000", "").trim().slice(0, 500);
    if (key) this.outcomes.set(key, outcome);
  }
  get size(): number {
    return this.outcomes.size;
  }
  results(): TestResults {
    const by = (o: Outcome) => [...this.outcomes].filter(([, outcome]) => outcome === o).map(([name]) => name);
    const [passed, failed, skipped] = [by("pass"), by("fail"), by("skip")];
    const truncated = [passed, failed, skipped].some((list) => list.length > MAX_NAMES);
    return {
      format: this.format,
      namesPasses: this.namesPasses,
      passed: passed.slice(0, MAX_NAMES),
      failed: failed.slice(0, MAX_NAMES),
      skipped: skipped.slice(0, MAX_NAMES),
      truncated,
    };
  }
}

const lines = (output: string) => output.replace(/\r\n?/g, "\n").split("\n");

/** TAP: `ok 1 - name`, `not ok 2 - name # TODO`; node's nested subtests are indented, each under its `# Subtest:` parent. */
function readTap(output: string): TestResults | null {
  if (!/^\s*(not )?ok \d+/m.test(output) || !/^\s*(TAP version \d+|1\.\.\d+)/m.test(output)) return null;
  const tally = new Tally("tap");
  const parents: string[] = [];
  for (const line of lines(output)) {
    const subtest = /^(\s*)# Subtest: (.*)$/.exec(line);
    if (subtest) {
      const depth = Math.floor(subtest[1].length / 4);
      parents.length = depth;
      parents[depth] = subtest[2].trim();
      continue;
    }
    const point = /^(\s*)(not )?ok \d+(?: -)? ?([^#]*?)\s*(?:# (SKIP|TODO)\b.*)?$/i.exec(line);
    if (!point) continue;
    const depth = Math.floor(point[1].length / 4);
    parents.length = depth;
    const name = [...parents, point[3]].join(" > ");
    const directive = point[4]?.toUpperCase();
    tally.add(name, directive ? "skip" : point[2] ? "fail" : "pass");
  }
  return tally.size > 0 ? tally.results() : null;
}

/** node --test's spec reporter: ✔ / ✖ / ﹣ per test, two spaces per level under a ▶ suite; its closing list of failures is not read twice. */
function readNodeSpec(output: string): TestResults | null {
  if (!/^\s*(✔|✖) .+\(\d+(\.\d+)?m?s\)/m.test(output)) return null;
  const tally = new Tally("node-spec");
  const parents: string[] = [];
  for (const line of lines(output)) {
    if (/^✖ failing tests:/.test(line)) break;
    const suite = /^(\s*)▶ (.*)$/.exec(line);
    const test = /^(\s*)(✔|✖|﹣) (.*?) \(\d+(?:\.\d+)?m?s\)(?: # (SKIP|TODO).*)?$/.exec(line);
    const match = suite ?? test;
    if (!match) continue;
    const depth = Math.floor(match[1].length / 2);
    parents.length = depth;
    if (suite) {
      parents[depth] = suite[2];
      continue;
    }
    const [, , mark, name, directive] = test!;
    tally.add([...parents, name].join(" > "), directive || mark === "﹣" ? "skip" : mark === "✖" ? "fail" : "pass");
  }
  return tally.size > 0 ? tally.results() : null;
}

const xmlText = (s: string) =>
  s.replace(/&(lt|gt|quot|apos|amp|#(\d+));/g, (_, e: string, n?: string) => (n ? String.fromCharCode(Number(n)) : { lt: "<", gt: ">", quot: '"', apos: "'", amp: "&" }[e]!));
const attribute = (tag: string, name: string) => {
  const found = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return found ? xmlText(found[1]) : undefined;
};

/** JUnit XML: a <testcase> passes unless it holds <failure>, <error> or <skipped>. */
function readJunit(output: string): TestResults | null {
  if (!/<testsuites?[\s>]/.test(output)) return null;
  const tally = new Tally("junit");
  for (const match of output.matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const [, tag, , body = ""] = match;
    const name = attribute(tag, "name");
    if (!name) continue;
    const className = attribute(tag, "classname");
    tally.add(className ? `${className}.${name}` : name, /<(failure|error)\b/.test(body) ? "fail" : /<skipped\b/.test(body) ? "skip" : "pass");
  }
  return tally.size > 0 ? tally.results() : null;
}

/** pytest: `path::test PASSED` (-v), `PASSED path::test` (-rA), and the summary's `FAILED path::test - why`, which the default prints. */
function readPytest(output: string): TestResults | null {
  // Its last line, framed in = signs unless -q: "1 failed, 2 passed, 1 skipped in 0.85s".
  if (!/^(=+ )?[\d\w ,]*\b(passed|failed|errors?|no tests ran)\b[\d\w ,]* in [\d.]+s\b/m.test(output)) return null;
  let namesPasses = false;
  const tally = new Tally("pytest");
  for (const line of lines(output)) {
    const verbose = /^(\S+::\S+) (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b/.exec(line);
    const summary = /^(PASSED|FAILED|ERROR|XFAIL|XPASS) (\S+::\S+)/.exec(line);
    const [name, word] = verbose ? [verbose[1], verbose[2]] : summary ? [summary[2], summary[1]] : [];
    if (!name || !word) continue;
    if (word === "PASSED") namesPasses = true;
    tally.add(name, word === "PASSED" || word === "XFAIL" ? "pass" : word === "SKIPPED" ? "skip" : "fail");
  }
  // Its summary line read, a run that names no test (its default output on a green run) still says none failed.
  return { ...tally.results(), namesPasses };
}

/** go test -json: one event per line; a test's last pass, fail or skip is its outcome. */
function readGoJson(output: string): TestResults | null {
  if (!/^\{"Time":.*"Action":/m.test(output)) return null;
  const tally = new Tally("go-json");
  for (const line of lines(output)) {
    if (!line.startsWith("{")) continue;
    let event: { Action?: string; Test?: string; Package?: string };
    try {
      event = JSON.parse(line);
    } catch {
      continue;
    }
    if (!event.Test || !(event.Action === "pass" || event.Action === "fail" || event.Action === "skip")) continue;
    tally.add(event.Test, event.Action);
  }
  return tally.size > 0 ? tally.results() : null;
}

/** go test: `--- PASS: TestX`; without -v go prints only the failures. */
function readGo(output: string): TestResults | null {
  if (!/^\s*--- (PASS|FAIL|SKIP): /m.test(output)) return null;
  const tally = new Tally("go", /^\s*--- PASS: /m.test(output) || /^=== RUN /m.test(output));
  for (const line of lines(output)) {
    const match = /^\s*--- (PASS|FAIL|SKIP): (\S+)/.exec(line);
    if (match) tally.add(match[2], match[1] === "PASS" ? "pass" : match[1] === "FAIL" ? "fail" : "skip");
  }
  return tally.results();
}

/** cargo test: `test path ... ok | FAILED | ignored`. */
function readCargo(output: string): TestResults | null {
  if (!/^test result: /m.test(output)) return null;
  const tally = new Tally("cargo");
  for (const line of lines(output)) {
    const match = /^test (\S+) \.\.\. (ok|FAILED|ignored)\b/.exec(line);
    if (match) tally.add(match[1], match[2] === "ok" ? "pass" : match[2] === "FAILED" ? "fail" : "skip");
  }
  return tally.results();
}

const READERS = [readGoJson, readJunit, readTap, readNodeSpec, readPytest, readCargo, readGo];

/** The tests a run names and how each ended, or null when its output is no format Quorum reads (judge it by the exit code). */
export function readTestResults(output: string): TestResults | null {
  for (const read of READERS) {
    const results = read(output);
    if (results) return results;
  }
  return null;
}

const FORMAT_WORDS: Record<TestFormat, string> = {
  tap: "TAP",
  "node-spec": "node --test's spec reporter",
  junit: "JUnit XML",
  pytest: "pytest's output",
  "go-json": "go test -json",
  go: "go test's output",
  cargo: "cargo test's output",
};

const FAILURES_NAMED = 10;

/** One line for people and models: "2 passed, 1 failed (slug > dashes), 1 skipped — read from TAP", or why only the exit code counts. */
export function describeTestResults(results: TestResults | null, exitCode: number | null): string {
  if (!results)
    return `exit code ${exitCode ?? "none"}; the output names no tests in a format Quorum reads (TAP, JUnit XML, node --test, pytest, go test, cargo test), so only the exit code counts`;
  const { passed, failed, skipped } = results;
  const named = failed.slice(0, FAILURES_NAMED).join(", ") + (failed.length > FAILURES_NAMED ? `, and ${failed.length - FAILURES_NAMED} more` : "");
  const parts = [
    results.namesPasses ? `${passed.length}${results.truncated ? "+" : ""} passed` : "passes not named",
    `${failed.length} failed${failed.length ? ` (${named})` : ""}`,
    ...(skipped.length ? [`${skipped.length} skipped`] : []),
  ];
  return `${parts.join(", ")} — read from ${FORMAT_WORDS[results.format]}; exit code ${exitCode ?? "none"}`;
}

/** A test's name as a task names it (a target) or a result lists it. */
const testName = z
  .string()
  .trim()
  .min(1)
  .max(500)
  .refine((s) => !s.includes("\u0000"), "a test name may not contain NUL characters");

/** The tests a task is meant to make pass: by whole name, or by its end (`dashes spaces`, `test_slug.py::test_dashes`). */
export const targetTestsInput = z.array(testName).max(50);

/** Per-test results as a submission carries them (what run_tests returned). */
export const testResultsInput = z.strictObject({
  format: z.enum(["tap", "node-spec", "junit", "pytest", "go-json", "go", "cargo"]),
  namesPasses: z.boolean(),
  passed: z.array(testName).max(MAX_NAMES),
  failed: z.array(testName).max(MAX_NAMES),
  skipped: z.array(testName).max(MAX_NAMES),
  truncated: z.boolean(),
}) satisfies z.ZodType<TestResults>;

/** A task's tests against the flight's baseline (db/functions/quorum_test_delta.sql computes it). */
export interface TestDelta {
  /** Target tests that pass now. */
  fixed: string[];
  /** Target tests that fail now. */
  stillFailing: string[];
  /** Target tests the run did not name (renamed, deleted, or never run). */
  unseen: string[];
  /** Tests that fail now, are no target, and did not fail at the baseline. */
  broken: string[];
  /** Tests red at the baseline that no longer fail, targets or not. */
  repaired: string[];
}

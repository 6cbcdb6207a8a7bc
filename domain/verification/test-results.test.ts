// What each runner printed for the same small suite (test/fixtures/test-output/README.md): one passing,
// one failing, one skipped test, nested where the runner nests them, read into names and outcomes.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_NAMES, readTestResults } from "./test-results";

const recorded = (file: string) => readFileSync(join(import.meta.dirname, "../../test/fixtures/test-output", file), "utf8");

describe("a test run's per-test results", () => {
  it("reads node --test's TAP, nested subtests under their parent, SKIP and TODO as skipped", () => {
    expect(readTestResults(recorded("node-tap.txt"))).toEqual({
      format: "tap",
      namesPasses: true,
      passed: ["adds", "slug > lower-cases"],
      failed: ["slug > dashes spaces", "slug"],
      skipped: ["later", "todo one"],
      truncated: false,
    });
  });

  it("reads node --test's spec reporter, and not its closing list of failures twice", () => {
    const results = readTestResults(recorded("node-spec.txt"));
    expect(results).toMatchObject({ format: "node-spec", passed: ["adds", "slug > lower-cases"], skipped: ["later", "todo one"] });
    expect(results?.failed.sort()).toEqual(["slug", "slug > dashes spaces"]);
  });

  it("reads pytest -v, -rA and its default, which names only the failures", () => {
    const verbose = { passed: ["tests/test_slug.py::test_lower", "tests/test_slug.py::TestClamp::test_low"], failed: ["tests/test_slug.py::test_dashes"] };
    expect(readTestResults(recorded("pytest-v.txt"))).toMatchObject({ format: "pytest", namesPasses: true, ...verbose, skipped: ["tests/test_slug.py::test_later"] });
    expect(readTestResults(recorded("pytest-rA.txt"))).toMatchObject({ format: "pytest", namesPasses: true, ...verbose });
    expect(readTestResults(recorded("pytest-default.txt"))).toEqual({
      format: "pytest",
      namesPasses: false,
      passed: [],
      failed: ["tests/test_slug.py::test_dashes"],
      skipped: [],
      truncated: false,
    });
  });

  it("reads a green pytest run whose default output names no test as nothing failed", () => {
    expect(readTestResults("....                                   [100%]\n4 passed in 0.03s\n")).toEqual({
      format: "pytest",
      namesPasses: false,
      passed: [],
      failed: [],
      skipped: [],
      truncated: false,
    });
  });

  it("reads JUnit XML, a class's tests under its name", () => {
    expect(readTestResults(recorded("junit.xml"))).toMatchObject({
      format: "junit",
      passed: ["tests.test_slug.test_lower", "tests.test_slug.TestClamp.test_low"],
      failed: ["tests.test_slug.test_dashes"],
      skipped: ["tests.test_slug.test_later"],
    });
  });

  it("reads go test -json and go test -v, subtests by their path", () => {
    const go = { passed: ["TestLower", "TestClamp/low"], failed: ["TestDashes"], skipped: ["TestLater"] };
    expect(readTestResults(recorded("go-json.txt"))).toMatchObject({ format: "go-json", namesPasses: true, ...go });
    const verbose = readTestResults(recorded("go-v.txt"));
    expect(verbose).toMatchObject({ format: "go", namesPasses: true, failed: ["TestDashes"], skipped: ["TestLater"] });
    expect(verbose?.passed.sort()).toEqual(["TestClamp", "TestClamp/low", "TestLower"]);
    expect(readTestResults("--- FAIL: TestDashes (0.00s)\nFAIL\n")).toMatchObject({ format: "go", namesPasses: false, failed: ["TestDashes"] });
  });

  it("reads cargo test", () => {
    expect(readTestResults(recorded("cargo.txt"))).toMatchObject({ format: "cargo", passed: ["tests::adds"], failed: ["tests::subtracts"], skipped: ["tests::later"] });
  });

  it("says it cannot tell when the output is no format it reads", () => {
    expect(readTestResults("Running 3 checks...\nall good\n")).toBeNull();
    expect(readTestResults("")).toBeNull();
  });

  it("keeps the counts honest when a suite names more tests than it keeps", () => {
    const tap = ["TAP version 13", ...Array.from({ length: MAX_NAMES + 5 }, (_, i) => `ok ${i + 1} - t${i}`), `1..${MAX_NAMES + 5}`].join("\n");
    const results = readTestResults(tap)!;
    expect(results.passed).toHaveLength(MAX_NAMES);
    expect(results.truncated).toBe(true);
  });
});

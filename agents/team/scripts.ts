// What each role "thinks" when no model is configured: scripted responses on the real loop.
// The coder's script knows the demo's parser; the reviewer's is a rule over the evidence it sees.
import type { ChatMessage } from "../model/model-client";
import type { ScriptEntry, ScriptStep } from "../model/scripted";

export const PARSE_FILE = "src/parse.js";
const BUGGY_LINE = "export function parse(text) {\n";

export function orchestratorScript(goal: string): ScriptEntry[] {
  return [
    {
      text: "One change fixes this; the reviewer checks it and the tester runs the suite on the flight's branch.",
      toolCalls: [
        {
          name: "create_task",
          arguments: {
            title: "Make parse('') return no rows",
            description: `${goal}\nThe failing test is test/parse.test.js ("an empty input has no rows"); the parser is ${PARSE_FILE}.`,
            acceptance_criteria: "parse('') returns []; every test of the repository passes (npm test exits 0).",
          },
        },
      ],
    },
    { toolCalls: [{ name: "done", arguments: { summary: "Planned one task for the coder.", evidence: ["task created"] } }] },
  ];
}

export function coderScript(): ScriptStep[] {
  return [
    { text: "Reading the parser first.", toolCalls: [{ name: "read_file", arguments: { path: PARSE_FILE } }] },
    {
      text: "An empty string splits into one empty line; return no rows for it.",
      toolCalls: [
        {
          name: "edit_file",
          arguments: { path: PARSE_FILE, old_string: BUGGY_LINE, new_string: `${BUGGY_LINE}  if (text === "") return [];\n` },
        },
      ],
    },
    { toolCalls: [{ name: "run_tests", arguments: {} }] },
    (messages) => {
      const run = lastTestRun(messages);
      const summary = run.passed ? "parse('') now returns []; the suite passes." : `parse('') should now return [], but the suite still fails (${run.said}).`;
      return { toolCalls: [{ name: "done", arguments: { summary, evidence: [`run_tests: ${run.said}`] } }] };
    },
  ];
}

/** What the run's last run_tests returned (the observation the loop showed it), in words: its exit code, or why it did not finish. */
export function lastTestRun(messages: readonly ChatMessage[]): { passed: boolean; said: string } {
  const result = messages.findLast((m) => m.role === "tool" && m.name === "run_tests");
  if (result?.role !== "tool") return { passed: false, said: "the tests were not run" };
  try {
    const observation = JSON.parse(result.content) as { is_error: true; reason: string } | { is_error: false; result: { exitCode: number | null } };
    if (observation.is_error) return { passed: false, said: `it did not finish: ${observation.reason.slice(0, 200)}` };
    return { passed: observation.result.exitCode === 0, said: `exit code ${observation.result.exitCode}` };
  } catch {
    return { passed: false, said: "its result could not be read" };
  }
}

/** The rule reviewer: accept only a non-empty diff whose test run passed. */
export function reviewerScript(diff: string, evidence: string): ScriptEntry[] {
  const testsPass = /exit code 0|# fail 0/.test(evidence);
  const verdict =
    diff.trim() === ""
      ? { verdict: "reject", reason: "The diff is empty: nothing was changed." }
      : testsPass
        ? { verdict: "accept", reason: "The change is small and the test run in the evidence passes." }
        : { verdict: "reject", reason: "The evidence does not show a passing test run." };
  return [
    { toolCalls: [{ name: "verdict", arguments: verdict }] },
    { toolCalls: [{ name: "done", arguments: { summary: `Reviewed: ${verdict.verdict}.`, evidence: [verdict.reason] } }] },
  ];
}

export function testerScript(): ScriptStep[] {
  return [
    { toolCalls: [{ name: "run_tests", arguments: {} }] },
    (messages) => {
      const run = lastTestRun(messages);
      return {
        toolCalls: [
          { name: "done", arguments: { summary: `Ran the full suite on the flight's branch: ${run.passed ? "it passes" : "it fails"}.`, evidence: [`run_tests: ${run.said}`] } },
        ],
      };
    },
  ];
}

// run_tests that also remembers its last result, so the harness reports the real output, not a claim.
import type { Db } from "../../db/client";
import { loadRunEvents } from "../../domain/journal/load";
import { payloadOf } from "../../domain/journal/payloads";
import { RUN_TESTS, runTestsTool, type TestRunResult } from "../tools/run-tests";
import { defineTool, type Tool } from "../tools/tool";

/** A run_tests result; one journalled before per-test results has no `tests` or `summary`. */
export type TestRun = Pick<TestRunResult, "exitCode" | "output"> & Partial<Pick<TestRunResult, "tests" | "summary">>;

export function recordingRunTests(command: string[], make: (command: string[]) => Tool = (argv) => runTestsTool({ command: argv })) {
  const tool = make(command);
  const seen: { last?: TestRun } = {};
  return {
    seen,
    tool: defineTool({
      ...tool,
      async execute(args, toolCtx) {
        const result = (await tool.execute(args, toolCtx)) as TestRun;
        seen.last = result;
        return result;
      },
    }),
  };
}

/** The last run_tests result a run's journal holds: a resumed run's evidence when it ran its tests before the crash. */
export async function lastTestRunOf(db: Db, runId: string): Promise<TestRun | undefined> {
  const returned = (await loadRunEvents(db, runId)).filter((e) => e.kind === "ToolReturned").map((e) => payloadOf(e, "ToolReturned"));
  const last = returned.findLast((d) => d.tool === RUN_TESTS && !d.observation.is_error);
  return last && !last.observation.is_error ? (last.observation.result as TestRun) : undefined;
}

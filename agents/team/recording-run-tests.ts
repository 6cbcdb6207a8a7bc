// run_tests that also remembers its last result, so the harness reports the real output, not a claim.
import { runTestsTool } from "../tools/run-tests";
import { defineTool } from "../tools/tool";

export interface TestRun {
  exitCode: number | null;
  output: string;
}

export function recordingRunTests(command: string[]) {
  const tool = runTestsTool({ command });
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

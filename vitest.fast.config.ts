// `npm run test:fast`: the unit tests that start no process (no CLI, model server, git, sandbox or flight),
// for the inner loop; `npm test` runs every test. test/no-processes.ts fails a test here that starts one.
import { defineConfig } from "vitest/config";
import base, { suite } from "./vitest.config";

/** Test files that start a process (the CLI, a server, a sandbox, promtool) or fly whole flights. */
export const processTests: string[] = [
  "agents/team/**",
  "agents/experiments/bakeoff.test.ts",
  "agents/fork.test.ts",
  "agents/journal-views.test.ts",
  "agents/loop.test.ts",
  "agents/replay.test.ts",
  "agents/resume.test.ts",
  "agents/run-spans.test.ts",
  "agents/tools/tools.test.ts",
  "bin/flight.test.ts",
  "bin/mcp.test.ts",
  "bin/model.test.ts",
  "bin/replay-diagnose.test.ts",
  "bin/run.test.ts",
  "bin/team.test.ts",
  "bin/tracing.test.ts",
  "bin/usage-hook.test.ts",
  "bin/usage.test.ts",
  "surfaces/http/client.test.ts",
  "surfaces/a2a/state.test.ts",
  "domain/flights/http.test.ts",
  "domain/flights/repository.test.ts",
  "domain/flights/task-diff.test.ts",
  "domain/metrics/alert-rules.test.ts",
  "domain/metrics/metrics.test.ts",
  "domain/rooms/restart.test.ts",
  "domain/tasks/fault-injection.test.ts",
  "domain/webhooks/server-kill.test.ts",
  "test/api-conformance.test.ts",
  "test/authz-matrix.test.ts",
  "test/embedded-database.test.ts",
  "test/fork-route.test.ts",
  "test/fuzz.test.ts",
  "test/journal-views.test.ts",
  "test/red-team/agent-flights.test.ts",
  "test/red-team/file-tools.test.ts",
  "test/red-team/sandbox-limits.test.ts",
  "test/red-team/sandbox.test.ts",
  "test/red-team/setup-network.test.ts",
  "test/red-team/workspace-git.test.ts",
  "surfaces/web/metrics.test.ts",
];

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    // These compute rather than wait: one worker a core.
    maxWorkers: 2,
    projects: suite({ leftOut: processTests, setupFiles: ["test/no-processes.ts"] }),
  },
});

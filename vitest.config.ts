import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * Test files that set the environment a module reads once (a lease, a cookie's Secure, the metrics' token),
 * start the process's tracing, or stub a module: each gets a fresh module graph. Every other file shares its worker's modules with the files
 * before it, loaded once: importing the domain for each file was most of the suite's CPU time
 * (bench/results/2026-12-07-tests.md).
 */
export const ownModuleFiles = [
  "agents/run-spans.test.ts",
  "agents/team/long-flight.test.ts",
  "agents/team/long-runs.test.ts",
  "agents/team/setup-flights.test.ts",
  "agents/tools/redaction.test.ts",
  "agents/tools/registry-proxy.test.ts",
  "agents/tools/tools.test.ts",
  "bin/experiment.test.ts",
  "bin/team.test.ts",
  "bin/tracing.test.ts",
  "bin/webhook.test.ts",
  "domain/experiments/saved.test.ts",
  "domain/metrics/metrics.test.ts",
  "domain/principals/secure-cookie.test.ts",
  "domain/principals/sign-out.test.ts",
  "domain/tasks/lease-setting.test.ts",
  "surfaces/a2a/card.test.ts",
  "surfaces/mcp/origin.test.ts",
  "surfaces/web/http-spans.test.ts",
  "surfaces/web/metrics.test.ts",
  "test/no-processes.test.ts",
  "test/red-team/sandbox-limits.test.ts",
  "test/red-team/setup-network.test.ts",
  "test/red-team/workspace-git.test.ts",
];

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
  "domain/flights/proposals.test.ts",
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
  "test/github-stand-in.test.ts",
  "test/journal-views.test.ts",
  "test/red-team/agent-flights.test.ts",
  "test/red-team/file-tools.test.ts",
  "test/red-team/sandbox-limits.test.ts",
  "test/red-team/sandbox.test.ts",
  "test/red-team/setup-network.test.ts",
  "test/red-team/workspace-git.test.ts",
  "surfaces/web/metrics.test.ts",
];

const include = [
  "domain/**/*.test.ts",
  "surfaces/**/*.test.ts",
  "agents/**/*.test.ts",
  "app/**/*.test.ts",
  "components/**/*.test.ts",
  "db/**/*.test.ts",
  "bin/**/*.test.ts",
  "test/**/*.test.ts",
  "client/**/*.test.ts",
];

/** The run's two groups of files, less `leftOut`; `setupFiles` run before each file, after the database's. */
export function suite({ leftOut = [], setupFiles = [] }: { leftOut?: string[]; setupFiles?: string[] } = {}) {
  const common = { setupFiles: ["test/setup-database.ts", ...setupFiles], testTimeout: 30_000, hookTimeout: 60_000 };
  return [
    { extends: true as const, test: { ...common, name: "shared", isolate: false, include, exclude: [...ownModuleFiles, ...processTests, ...leftOut] } },
    // A file that flies flights or starts workers keeps a process of its own: a loop it leaves running would act on
    // the next file's database (getDb follows DATABASE_URL), as one clean-clone run showed (a leaked coder claimed a task).
    {
      extends: true as const,
      test: {
        ...common,
        name: "own-modules",
        isolate: true,
        include: [...ownModuleFiles, ...processTests.map((glob) => (glob.endsWith("/**") ? `${glob}/*.test.ts` : glob))],
        exclude: leftOut,
      },
    },
  ];
}

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL(".", import.meta.url)) } },
  test: {
    globalSetup: ["test/global-setup.ts"],
    pool: "forks",
    // Each test file gets its own database cloned from a migrated template.
    fileParallelism: true,
    // Twice the cores: the slow files mostly wait (on a flight, a model server, a sandbox), not compute.
    maxWorkers: 4,
    projects: suite(),
  },
});

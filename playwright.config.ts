import { defineConfig } from "@playwright/test";

export default defineConfig({
  testDir: "e2e",
  globalSetup: "./e2e/global-setup.ts",
  // One shared server, tests with unique names side by side: most of a spec is waiting on the page or the
  // team, so two share two cores well; four were slower (bench/results/2026-12-06-tests.md).
  workers: 2,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  outputDir: "test-results",
  use: {
    // A failure keeps its trace (actions, DOM snapshots, network, console) and its screenshot; the trace's
    // filmstrip, a screencast of every test, was a quarter of the suite's CPU (bench/results/2026-12-07-tests.md).
    trace: { mode: "retain-on-failure", screenshots: false },
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
});

import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL(".", import.meta.url)) } },
  test: {
    include: [
      "domain/**/*.test.ts",
      "surfaces/**/*.test.ts",
      "agents/**/*.test.ts",
      "app/**/*.test.ts",
      "components/**/*.test.ts",
      "db/**/*.test.ts",
      "bin/**/*.test.ts",
      "test/**/*.test.ts",
      "client/**/*.test.ts",
    ],
    globalSetup: ["test/global-setup.ts"],
    setupFiles: ["test/setup-database.ts"],
    pool: "forks",
    // Each test file gets its own database cloned from a migrated template.
    fileParallelism: true,
    // Twice the cores: the slow files mostly wait (on a flight, a model server, a sandbox), not compute.
    maxWorkers: 4,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

// `npm run test:fast`: the unit tests that start no process (no CLI, model server, git, sandbox or flight),
// for the inner loop; `npm test` runs every test. test/no-processes.ts fails a test here that starts one.
import { defineConfig } from "vitest/config";
import base, { processTests, suite } from "./vitest.config";

export { processTests };

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    // These compute rather than wait: one worker a core.
    maxWorkers: 2,
    projects: suite({ leftOut: processTests, setupFiles: ["test/no-processes.ts"] }),
  },
});

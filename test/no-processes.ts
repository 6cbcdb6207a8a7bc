// In `npm run test:fast`, a test that starts a process fails at once, saying so: such tests belong to the
// full run (vitest.fast.config.ts lists them). git alone may run: its calls end in milliseconds, and the
// API catalogue's fixtures make a scratch repository with it.
import childProcess from "node:child_process";
import { basename } from "node:path";
import { syncBuiltinESMExports } from "node:module";

const starters = ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"] as const;
for (const name of starters) {
  const original = childProcess[name] as (...args: unknown[]) => unknown;
  (childProcess as unknown as Record<string, unknown>)[name] = (command: unknown, ...rest: unknown[]) => {
    if (name !== "fork" && typeof command === "string" && basename(command) === "git") return original(command, ...rest);
    throw new Error(`this test starts a process (child_process.${name} ${String(command)}): list its file in vitest.fast.config.ts's processTests, which test:fast leaves out`);
  };
}
syncBuiltinESMExports();

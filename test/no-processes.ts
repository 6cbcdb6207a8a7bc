// In `npm run test:fast`, a test that starts a process fails at once, saying so: such tests belong to the
// full run (vitest.fast.config.ts lists them). git alone may run: its calls end in milliseconds, and the
// API catalogue's fixtures make a scratch repository with it.
import childProcess from "node:child_process";
import { basename } from "node:path";
import { syncBuiltinESMExports } from "node:module";
import { promisify } from "node:util";

const starters = ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"] as const;
type Starter = ((...args: unknown[]) => unknown) & { [promisify.custom]?: (...args: unknown[]) => unknown };

/** `starter` for git alone; any other command throws, saying which list the test belongs on. */
function gitOnly(name: string, starter: (...args: unknown[]) => unknown) {
  return (command: unknown, ...rest: unknown[]) => {
    if (name !== "fork" && typeof command === "string" && basename(command) === "git") return starter(command, ...rest);
    throw new Error(`this test starts a process (child_process.${name} ${String(command)}): list its file in vitest.fast.config.ts's processTests, which test:fast leaves out`);
  };
}

for (const name of starters) {
  const original = childProcess[name] as Starter;
  const guarded: Starter = gitOnly(name, original);
  // promisify(execFile) resolves { stdout, stderr } through execFile's own promisified form; without it the
  // async git calls (domain/host-git.ts) would get a bare string.
  const custom = original[promisify.custom];
  if (custom) guarded[promisify.custom] = gitOnly(name, custom);
  (childProcess as unknown as Record<string, unknown>)[name] = guarded;
}
syncBuiltinESMExports();

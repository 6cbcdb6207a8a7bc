// run_tests: runs the configured test command in the working directory and reports its exit code and output.
// The command is the harness's choice, never the model's: the model only asks for a run.
import { spawn } from "node:child_process";
import { z } from "zod";
import { defineTool, ToolFailure } from "./tool";

const OUTPUT_TAIL = 8_000;

/**
 * Variables the workpiece's tests never see: Quorum's own (its database, its keys, the hub's URL, the
 * model's keys), libpq's, Next's, and anything that names a secret. PATH, HOME, locale and the rest stay,
 * so the tests run as they would in the repository's own shell.
 */
const HIDDEN = [/^DATABASE_URL$/i, /^QUORUM_/i, /^PG[A-Z]/i, /^NEXT_/i, /^__NEXT/i, /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|COOKIE|SESSION/i];

function workpieceEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (HIDDEN.some((pattern) => pattern.test(name))) delete env[name];
  return env;
}

export interface RunTestsOptions {
  /** argv of the test runner, e.g. ["node", "--test"]. */
  command: string[];
  timeoutMs?: number;
}

export function runTestsTool(options: RunTestsOptions) {
  const [program, ...argv] = options.command;
  if (!program) throw new Error("run_tests needs a command");
  return defineTool({
    name: "run_tests",
    description: `Run the test suite (\`${options.command.join(" ")}\`) in the working directory. Returns the exit code (0 means every test passed) and the end of the output.`,
    parameters: z.object({}),
    idempotent: true,
    timeoutMs: options.timeoutMs ?? 120_000,
    execute(_args, ctx) {
      return new Promise((resolve, reject) => {
        // Its own process group, so a timeout ends the runner and everything it started; none of Quorum's secrets.
        const child = spawn(program, argv, { cwd: ctx.root, env: workpieceEnv(), detached: true, stdio: ["ignore", "pipe", "pipe"] });
        let output = "";
        const collect = (chunk: Buffer) => {
          output = (output + chunk.toString()).slice(-OUTPUT_TAIL * 2);
        };
        child.stdout.on("data", collect);
        child.stderr.on("data", collect);
        const stop = () => {
          if (child.pid) {
            try {
              process.kill(-child.pid, "SIGKILL");
            } catch {
              // already gone
            }
          }
        };
        ctx.signal.addEventListener("abort", stop, { once: true });
        child.on("error", (error) => {
          ctx.signal.removeEventListener("abort", stop);
          reject(new ToolFailure(`the test command could not start: ${error.message}`, "the harness's test command is misconfigured; report it"));
        });
        child.on("close", (code, signal) => {
          ctx.signal.removeEventListener("abort", stop);
          const tail = output.slice(-OUTPUT_TAIL);
          // Death by a signal (directly, or 128+N through a shell) says nothing about the code under test.
          if (signal || (code !== null && code > 128 && code < 160)) {
            const how = signal ?? `exit code ${code}`;
            reject(new ToolFailure(`the test runner died (${how}) before it finished`, "run the tests again; if it keeps dying, report it", true));
            return;
          }
          resolve({ exitCode: code, passed: code === 0, output: tail });
        });
      });
    },
  });
}

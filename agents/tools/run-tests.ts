// run_tests: runs the configured test command in the working directory and reports its exit code, each test's
// outcome where the runner prints a format Quorum reads (domain/verification/test-results.ts), and the output's end.
// The command is the harness's choice, never the model's: the model only asks for a run.
import { spawn } from "node:child_process";
import { constants } from "node:os";
import { z } from "zod";
import { describeTestResults, readTestResults, type TestResults } from "../../domain/verification/test-results";
import { maxMemoryBytes } from "./command-limits";
import { NoSandbox, NoSuchProgram, sandboxed } from "./sandbox";
import { defineTool, ToolFailure } from "./tool";

const OUTPUT_TAIL = 8_000;
/** What is read for the tests' names: a suite's whole report, short of a runaway's. */
const OUTPUT_READ = 4 * 1024 * 1024;

/** What run_tests answers. */
export interface TestRunResult {
  exitCode: number | null;
  passed: boolean;
  /** Each test's outcome, or null when the output is no format Quorum reads. */
  tests: TestResults | null;
  /** The run in one line (describeTestResults). */
  summary: string;
  output: string;
  outOfMemory?: true;
}

/** The name of signal `n` (9 → SIGKILL): a shell reports a child killed by it as exit code 128 + n. */
function signalName(n: number): string {
  return Object.entries(constants.signals).find(([, number]) => number === n)?.[0] ?? `signal ${n}`;
}

export interface RunTestsOptions {
  /** argv of the test runner, e.g. ["node", "--test"]. */
  command: string[];
  timeoutMs?: number;
}

/** The tool's name, which the harness looks for in a run's journal. */
export const RUN_TESTS = "run_tests";

export function runTestsTool(options: RunTestsOptions) {
  const [program, ...argv] = options.command;
  if (!program) throw new Error("run_tests needs a command");
  return defineTool({
    name: RUN_TESTS,
    description: `Run the test suite (\`${options.command.join(" ")}\`) in the working directory. Returns the exit code (0 means every test passed), which tests passed and failed where the runner names them, and the end of the output.`,
    parameters: z.object({}),
    idempotent: true,
    timeoutMs: options.timeoutMs ?? 120_000,
    execute(_args, ctx) {
      return new Promise((resolve, reject) => {
        // In the sandbox (./sandbox.ts), in its own process group, so a timeout ends the runner and everything it started.
        let command: ReturnType<typeof sandboxed>;
        try {
          command = sandboxed([program, ...argv], ctx.root, { git: ctx.git, environment: ctx.environment });
        } catch (error) {
          if (error instanceof NoSuchProgram) {
            reject(new ToolFailure(`the test command could not start: ${error.message}`, "the harness's test command is misconfigured; report it", { cause: error }));
            return;
          }
          if (!(error instanceof NoSandbox)) throw error;
          reject(new ToolFailure(`the tests were not run: ${error.message}`, "tell a human: the hub cannot sandbox agent code on this machine"));
          return;
        }
        const child = spawn(command.program, command.args, { cwd: ctx.root, env: command.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
        let output = "";
        const collect = (chunk: Buffer) => {
          if (output.length < OUTPUT_READ) output += chunk.toString();
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
          command.release();
          reject(new ToolFailure(`the test command could not start: ${error.message}`, "the harness's test command is misconfigured; report it", { cause: error }));
        });
        child.on("close", (code, signal) => {
          ctx.signal.removeEventListener("abort", stop);
          const outOfMemory = command.outOfMemory();
          command.release();
          const tail = output.slice(-OUTPUT_TAIL);
          if (outOfMemory) {
            const result: TestRunResult = {
              exitCode: code,
              passed: false,
              tests: null,
              summary: "the tests ran out of memory",
              outOfMemory: true,
              output: `${tail}\n[quorum] the tests ran out of memory: the sandbox allows ${maxMemoryBytes() / 1024 ** 2} MiB, files in /tmp and the worktree included`,
            };
            resolve(result);
            return;
          }
          // Death by a signal (directly, or 128+N through a shell) says nothing about the code under test.
          if (signal || (code !== null && code > 128 && code < 160)) {
            const how = signal ?? `exit code ${code}, ${signalName(code! - 128)}`;
            reject(new ToolFailure(`the test runner died (${how}) before it finished`, "run the tests again; if it keeps dying, report it", { transient: true }));
            return;
          }
          const tests = readTestResults(output);
          const result: TestRunResult = { exitCode: code, passed: code === 0, tests, summary: describeTestResults(tests, code), output: tail };
          resolve(result);
        });
      });
    },
  });
}

// Watching a child process: whether a pid still runs, waiting (bounded) for a child to exit, and the
// signals that ask us to stop. The embedded Postgres (./embedded.ts) and the CLI's supervisor
// (bin/processes.ts) both use them; db/ is the one folder both may import.
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";

/** Ctrl-C, SIGTERM and a closed terminal. */
export const STOP_SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** Whether a pid is a running process (a zombie waiting to be reaped is not). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A killed process whose parent died too can linger as a zombie until it is reaped: that is not running.
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
}

/** Resolves true once the child has exited (at once if it already has), false after `ms` if it has not. */
export function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((done) => {
    const timer = setTimeout(() => done(false), ms);
    child.once("exit", () => {
      clearTimeout(timer);
      done(true);
    });
  });
}

// A host's process as the run drives it: its output followed line by line, its process group stopped, its
// namespace's CPU time read. Kept apart from the run so the run reads as the scenario it plays.
import { type ChildProcess, execFileSync } from "node:child_process";
import { appendFileSync, readFileSync } from "node:fs";
import { killGroup } from "./netns";

export interface Proc {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the first stdout line that parses as JSON and satisfies `test`. */
  line<T>(test: (value: T) => boolean, ms: number, what: string): Promise<T>;
  exited: Promise<number | null>;
}

export function track(child: ChildProcess, onLine?: (line: string) => void): Proc {
  let out = "";
  let err = "";
  const waiters: { test: (v: unknown) => boolean; done: (v: unknown) => void }[] = [];
  let buffer = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    out += chunk;
    buffer += chunk;
    for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      onLine?.(line);
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        continue;
      }
      for (const w of [...waiters])
        if (w.test(value)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.done(value);
        }
    }
  });
  child.stderr!.on("data", (chunk: Buffer) => {
    err += chunk;
    // Only the tail is kept for a failure message; CHAOS_DEBUG_LOG=FILE keeps every host's stderr whole.
    if (process.env.CHAOS_DEBUG_LOG) appendFileSync(process.env.CHAOS_DEBUG_LOG, `[${child.pid}] ${chunk}`);
  });
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  const output = () => `${out.slice(-3000)}\n${err.slice(-3000)}`;
  return {
    child,
    output,
    exited,
    line<T>(test: (value: T) => boolean, ms: number, what: string) {
      return new Promise<T>((done, reject) => {
        const timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms / 1000} s\n${output()}`)), ms);
        const waiter = {
          test: test as (v: unknown) => boolean,
          done: (v: unknown) => {
            clearTimeout(timer);
            done(v as T);
          },
        };
        waiters.push(waiter);
        void exited.then((code) => {
          if (!waiters.includes(waiter)) return;
          clearTimeout(timer);
          reject(new Error(`${what}: exited with ${code}\n${output()}`));
        });
      });
    },
  };
}

/** Asks a process group to stop, then kills it after `ms`. */
export async function stop(proc: Proc | undefined, ms: number, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (!proc || proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  killGroup(proc.child, signal);
  const timer = setTimeout(() => killGroup(proc.child), ms);
  await proc.exited;
  clearTimeout(timer);
}

/** CPU seconds (user + system) of every process in a namespace. */
export function cpuSeconds(ns: string): number {
  let pids: string[] = [];
  try {
    pids = execFileSync("ip", ["netns", "pids", ns], { encoding: "utf8" }).split("\n").filter(Boolean);
  } catch {
    return 0;
  }
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone meanwhile
    }
  }
  return ticks / 100;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The environment of a host's process: ours, without what would point it at the machine's database or a test's build. */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ["DATABASE_URL", "QUORUM_SWEEPERS", "QUORUM_HOME", "QUORUM_URL", "PORT", "E2E_DATABASE_URL"]) delete env[name];
  return env;
}

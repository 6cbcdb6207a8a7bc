// The processes `quorum start` supervises: each in a process group of its own (so a Ctrl-C reaches the
// supervisor only, which decides the order), stopped within a deadline, killed with all they started.
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { exited, isRunning, STOP_SIGNALS } from "../db/child-process";

export { isRunning };

/** Preloaded into each supervised Node process: see the file's header. */
const LIFELINE = join(import.meta.dirname, "child-lifeline.cjs");

/** A Ctrl-C delivered twice within this window is one press (a shell and the process above us may both pass it on). */
const SAME_PRESS_MS = 300;

/** Runs `node <args>` in its own process group, tied to this process by a pipe on fd 3 (the lifeline). */
export function spawnSupervised(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; stdout?: "inherit" | "pipe" }): ChildProcess {
  return spawn(process.execPath, ["--require", LIFELINE, ...args], {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ["ignore", options.stdout ?? "inherit", "inherit", "pipe"],
  });
}

/** Every process below `pid`, whatever group it moved to (read from /proc; none where there is no /proc). */
export function descendants(pid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const childrenOf = new Map<number, number[]>();
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // pid (comm) state ppid …; comm may hold spaces and parentheses, so read after the last ')'.
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  for (let queue = [pid]; queue.length; ) {
    const next = childrenOf.get(queue.shift()!) ?? [];
    found.push(...next);
    queue.push(...next);
  }
  return found;
}

/** SIGKILLs these processes and the groups they lead. */
export function killAll(pids: number[]): void {
  for (const pid of pids) {
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, "SIGKILL");
      } catch {
        // not a group leader, or already gone
      }
    }
  }
}

/** SIGKILLs a child's group and everything it started. */
export function killChild(child: ChildProcess | undefined): void {
  if (child?.pid && child.exitCode === null && child.signalCode === null) killAll([child.pid, ...descendants(child.pid)]);
}

/** SIGTERM to the child's group; past the deadline, SIGKILL. Whatever it started and left behind goes too. */
export async function stopChild(child: ChildProcess | undefined, deadlineMs: number): Promise<void> {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const started = descendants(child.pid);
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    // gone already
  }
  if (!(await exited(child, deadlineMs))) {
    killAll([child.pid, ...descendants(child.pid)]);
    await exited(child, 2_000);
  }
  killAll(started.filter(isRunning));
}

/**
 * Ctrl-C, SIGTERM and a closed terminal: the first calls `first` (a clean stop), another one later calls
 * `again` (stop at once). Returns the handlers' remover.
 */
export function onStopSignals(first: () => void, again: () => void): () => void {
  let firstAt: number | undefined;
  const handler = () => {
    if (firstAt === undefined) {
      firstAt = Date.now();
      first();
    } else if (Date.now() - firstAt >= SAME_PRESS_MS) again();
  };
  for (const signal of STOP_SIGNALS) process.on(signal, handler);
  return () => {
    for (const signal of STOP_SIGNALS) process.off(signal, handler);
  };
}

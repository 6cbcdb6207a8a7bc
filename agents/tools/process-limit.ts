// How many processes one sandboxed command may run: a pids cgroup of its own. RLIMIT_NPROC does not do it:
// it counts processes per real user across the machine, and a hub running as root is exempt from it. Where
// this machine gives no writable pids controller (cgroup v1 `pids`, or v2 with `pids` delegated to the
// root's subtree), commands run without the limit and the team says so at start (./sandbox.ts).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Processes and threads together (the controller counts both): a test runner, its workers and their threads. */
export const MAX_PROCESSES = 512;

const V1 = "/sys/fs/cgroup/pids";
const V2 = "/sys/fs/cgroup";

let base: string | null | undefined;
let made = 0;

/** The folder new pids cgroups are made in, or null (asked once). */
function cgroupBase(): string | null {
  if (base !== undefined) return base;
  base = null;
  for (const candidate of [V1, V2]) {
    const probe = join(candidate, `quorum-probe-${process.pid}`);
    try {
      if (candidate === V2 && !readFileSync(join(V2, "cgroup.subtree_control"), "utf8").split(/\s+/).includes("pids")) continue;
      if (!existsSync(candidate)) continue;
      mkdirSync(probe);
      writeFileSync(join(probe, "pids.max"), String(MAX_PROCESSES));
      rmdirSync(probe);
      base = candidate;
      break;
    } catch {
      // not this one: read-only, absent, or not ours to write
    }
  }
  return base;
}

/** Whether a process of this id still runs (one we may not signal runs too). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Groups left by processes that are gone: a release's retries do not keep a process alive, so one that
 * exits right after its last command can leave its (empty) group behind. The next process removes them.
 */
function sweepLeftovers(at: string): void {
  for (const name of readdirSync(at)) {
    const owner = /^quorum-(\d+)-\d+$/.exec(name)?.[1];
    if (!owner || alive(Number(owner))) continue;
    try {
      rmdirSync(join(at, name));
    } catch {
      // still holds a process, or another process removed it first
    }
  }
}

export interface ProcessLimit {
  /** The file a process writes its pid to, to enter the group (its children follow it). */
  procs: string;
  /** Removes the group once its processes are gone (retried briefly: the last exits take a moment). */
  release(): void;
}

/** Whether commands can be given a process limit here. */
export function processLimitAvailable(): boolean {
  return cgroupBase() !== null;
}

/** A fresh pids cgroup for one command, or null where the machine gives none. */
export function newProcessLimit(): ProcessLimit | null {
  const at = cgroupBase();
  if (!at) return null;
  sweepLeftovers(at);
  const dir = join(at, `quorum-${process.pid}-${++made}`);
  try {
    mkdirSync(dir);
    writeFileSync(join(dir, "pids.max"), String(MAX_PROCESSES));
  } catch {
    return null;
  }
  const release = (tries = 20) => {
    try {
      rmdirSync(dir);
    } catch {
      if (tries > 0) setTimeout(() => release(tries - 1), 100).unref();
    }
  };
  return { procs: join(dir, "cgroup.procs"), release: () => release() };
}

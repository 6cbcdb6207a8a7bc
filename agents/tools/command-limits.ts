// How many processes and how much memory one sandboxed command may use: a cgroup of its own in the pids and
// memory controllers. RLIMIT_NPROC does not do it (it counts a real user's processes across the machine) and
// RLIMIT_AS counts one process's address space, not the tmpfs pages a command writes; a memory cgroup is
// charged for both. Where the machine gives no writable controller (cgroup v1's `pids`/`memory`, or v2 with
// them delegated to our subtree), commands run without that limit and the team says so at start (./sandbox.ts).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sandboxMemoryBytes } from "../../domain/config";

/** Processes and threads together (the controller counts both): a test runner, its workers and their threads. */
export const MAX_PROCESSES = 512;

/** Memory of one command, its tmpfs files included (the worktree's copy, /tmp, /dev/shm), no swap: QUORUM_SANDBOX_MEMORY_MB. */
export function maxMemoryBytes(): number {
  return sandboxMemoryBytes();
}

type Controller = "pids" | "memory";

/** Where each controller's groups are made: cgroup v1 has a hierarchy each, v2 one for both. */
interface Hierarchy {
  base: string;
  version: 1 | 2;
  controllers: Controller[];
}

const V2 = "/sys/fs/cgroup";
let found: Hierarchy[] | undefined;
let made = 0;

function limitsFor(version: 1 | 2, controller: Controller): [string, string][] {
  if (controller === "pids") return [["pids.max", String(MAX_PROCESSES)]];
  // v1: memsw (memory and swap together) may not be below the memory limit, so it is written second.
  const bytes = String(maxMemoryBytes());
  if (version === 1)
    return [
      ["memory.limit_in_bytes", bytes],
      ["memory.memsw.limit_in_bytes", bytes],
    ];
  return [
    ["memory.max", bytes],
    ["memory.swap.max", "0"],
  ];
}

function writeLimits(dir: string, version: 1 | 2, controller: Controller): void {
  for (const [file, value] of limitsFor(version, controller)) {
    // swap accounting is off on some kernels (no memsw file): the memory limit alone then holds.
    if (file.includes("swap") || file.includes("memsw")) {
      if (existsSync(join(dir, file))) writeFileSync(join(dir, file), value);
    } else writeFileSync(join(dir, file), value);
  }
}

/** Whether a group can be made and limited at `base` (tried once, with a probe group removed at once). */
function usable(base: string, version: 1 | 2, controllers: Controller[]): boolean {
  const probe = join(base, `quorum-probe-${process.pid}`);
  try {
    mkdirSync(probe);
    try {
      for (const controller of controllers) writeLimits(probe, version, controller);
      return true;
    } finally {
      rmdirSync(probe);
    }
  } catch {
    return false;
  }
}

/** The hierarchies new groups are made in (asked once: they do not change while the process runs). */
function hierarchies(): Hierarchy[] {
  if (found) return found;
  found = [];
  for (const controller of ["pids", "memory"] as const) {
    const v1 = join(V2, controller);
    if (existsSync(join(v1, "cgroup.procs")) && usable(v1, 1, [controller])) found.push({ base: v1, version: 1, controllers: [controller] });
  }
  const missing = (["pids", "memory"] as const).filter((c) => !found!.some((h) => h.controllers.includes(c)));
  if (missing.length > 0) {
    let delegated: string[] = [];
    try {
      delegated = readFileSync(join(V2, "cgroup.subtree_control"), "utf8").split(/\s+/);
    } catch {
      // no cgroup v2 at the top of /sys/fs/cgroup
    }
    const v2 = missing.filter((c) => delegated.includes(c));
    if (v2.length > 0 && usable(V2, 2, v2)) found.push({ base: V2, version: 2, controllers: v2 });
  }
  return found;
}

/** Which limits commands get here: a process limit, a memory limit, both or neither. */
export function commandLimitsAvailable(): { processes: boolean; memory: boolean } {
  const all = hierarchies().flatMap((h) => h.controllers);
  return { processes: all.includes("pids"), memory: all.includes("memory") };
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

export interface CommandLimits {
  /** The files a process writes its pid to, to enter the groups (its children follow it). */
  procs: string[];
  /** Whether the memory limit was reached and the kernel killed a process of the command for it. */
  outOfMemory(): boolean;
  /** Removes the groups once their processes are gone (retried briefly: the last exits take a moment). */
  release(): void;
}

function oomKills(dir: string, version: 1 | 2): number {
  try {
    const text = readFileSync(join(dir, version === 1 ? "memory.oom_control" : "memory.events"), "utf8");
    return Number(/^oom_kill (\d+)$/m.exec(text)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Fresh groups for one command, or null where the machine gives none. */
export function newCommandLimits(): CommandLimits | null {
  const groups: { dir: string; hierarchy: Hierarchy }[] = [];
  const name = `quorum-${process.pid}-${++made}`;
  for (const hierarchy of hierarchies()) {
    sweepLeftovers(hierarchy.base);
    const dir = join(hierarchy.base, name);
    try {
      mkdirSync(dir);
      for (const controller of hierarchy.controllers) writeLimits(dir, hierarchy.version, controller);
      groups.push({ dir, hierarchy });
    } catch {
      // this controller is not ours after all: the command runs without its limit
    }
  }
  if (groups.length === 0) return null;
  const release = (dir: string, tries = 20) => {
    try {
      rmdirSync(dir);
    } catch {
      if (tries > 0) setTimeout(() => release(dir, tries - 1), 100).unref();
    }
  };
  return {
    procs: groups.map((g) => join(g.dir, "cgroup.procs")),
    outOfMemory: () => groups.some((g) => g.hierarchy.controllers.includes("memory") && oomKills(g.dir, g.hierarchy.version) > 0),
    release: () => {
      for (const g of groups) release(g.dir);
    },
  };
}

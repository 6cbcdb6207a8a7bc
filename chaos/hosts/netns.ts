// Hosts as Linux network namespaces joined by a bridge in a "switch" namespace of their own, on addresses
// from 198.18.0.0/15 (reserved for network tests, never routed). Nothing is added to the root namespace:
// every veth end lives in the switch or in a host, so deleting the namespaces removes every link.
// Names carry this process's pid (`qh<pid>-…`); a later run deletes the namespaces of runs whose process
// is gone (a crash, a SIGKILL), after killing whatever still runs inside them.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const SUBNET = "198.18.0.0/15";
const PREFIX_LENGTH = 15;
const NAME = /^qh(\d+)-/;

/** Steps run on exit, on SIGINT/SIGTERM and on failure; each is synchronous so the 'exit' handler can run it. */
const cleanups: (() => void)[] = [];
let installed = false;

/** Registers a cleanup step (run last-registered first); returns a function that runs it now and forgets it. */
export function onCleanup(step: () => void): () => void {
  if (!installed) {
    installed = true;
    process.once("exit", runCleanups);
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
      process.once(signal, () => {
        process.stderr.write(`\n${signal}: removing the test network and its processes…\n`);
        runCleanups();
        process.exit(130);
      });
    }
  }
  cleanups.push(step);
  return () => {
    const at = cleanups.indexOf(step);
    if (at >= 0) cleanups.splice(at, 1);
    quietly(step);
  };
}

export function runCleanups(): void {
  while (cleanups.length) quietly(cleanups.pop()!);
}

function quietly(step: () => void): void {
  try {
    step();
  } catch (error) {
    process.stderr.write(`cleanup: ${(error as Error).message}\n`);
  }
}

function ip(...args: string[]): string {
  return execFileSync("ip", args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Kills everything running in a namespace, then deletes it. */
function removeNamespace(ns: string): void {
  let pids: number[] = [];
  try {
    pids = ip("netns", "pids", ns).split("\n").filter(Boolean).map(Number);
  } catch {
    // already gone
  }
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone meanwhile
    }
  }
  try {
    ip("netns", "del", ns);
  } catch {
    // already gone
  }
}

/** Why namespaces cannot be made here, or null when they can (tried for real: root alone is not proof). */
export function netnsUnavailable(): string | null {
  if (process.platform !== "linux") return `network namespaces are Linux only (this is ${process.platform})`;
  if (process.getuid?.() !== 0) return "network namespaces need root (ip netns add)";
  const probe = `qh${process.pid}-probe`;
  try {
    ip("netns", "add", probe);
    ip("netns", "del", probe);
    return null;
  } catch (error) {
    const words = ((error as { stderr?: string }).stderr ?? (error as Error).message).trim();
    return `ip netns add is not permitted here: ${words}`;
  }
}

/** Deletes namespaces left by runs whose process is gone (never another live run's). */
export function removeLeftovers(log: (line: string) => void = () => {}): void {
  let listed = "";
  try {
    listed = ip("netns", "list");
  } catch {
    return;
  }
  for (const line of listed.split("\n")) {
    const ns = line.split(" ")[0];
    const owner = NAME.exec(ns);
    if (!owner || Number(owner[1]) === process.pid || pidAlive(Number(owner[1]))) continue;
    log(`removing leftover namespace ${ns} of a run that ended without cleaning up`);
    removeNamespace(ns);
  }
}

export interface Host {
  name: string;
  ns: string;
  address: string;
  /** The veth end on the switch: its link going down cuts the host off. */
  port: string;
}

export interface Network {
  hosts: Record<string, Host>;
  /** Takes the host's switch port down: its packets go nowhere, its sockets time out (no reset). */
  cut(name: string): void;
  restore(name: string): void;
  /** Starts `argv` inside the host, in a process group of its own that cleanup kills. */
  spawn(name: string, argv: string[], options: { env: NodeJS.ProcessEnv; cwd: string }): ChildProcess;
  /** A private scratch folder (removed with the network). */
  scratch: string;
  destroy(): void;
}

/** Builds the switch and one namespace per host name, addressed 198.18.0.10, .11, … in order. */
export function buildNetwork(names: string[]): Network {
  const prefix = `qh${process.pid}`;
  const sw = `${prefix}-sw`;
  const made: string[] = [];
  const scratch = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const children = new Set<ChildProcess>();
  const destroy = onCleanup(() => {
    for (const child of children) killGroup(child);
    for (const ns of made.reverse()) removeNamespace(ns);
    rmSync(scratch, { recursive: true, force: true });
  });
  const hosts: Record<string, Host> = {};
  try {
    ip("netns", "add", sw);
    made.push(sw);
    ip("-n", sw, "link", "add", "br0", "type", "bridge");
    ip("-n", sw, "link", "set", "br0", "up");
    names.forEach((name, i) => {
      const ns = `${prefix}-${name}`;
      const port = `p${i}`;
      const address = `198.18.0.${10 + i}`;
      ip("netns", "add", ns);
      made.push(ns);
      ip("-n", sw, "link", "add", port, "type", "veth", "peer", "name", "eth0", "netns", ns);
      ip("-n", sw, "link", "set", port, "master", "br0");
      ip("-n", sw, "link", "set", port, "up");
      ip("-n", ns, "link", "set", "lo", "up");
      ip("-n", ns, "addr", "add", `${address}/${PREFIX_LENGTH}`, "dev", "eth0");
      ip("-n", ns, "link", "set", "eth0", "up");
      hosts[name] = { name, ns, address, port };
    });
  } catch (error) {
    destroy();
    throw error;
  }
  const hostOf = (name: string) => hosts[name] ?? (undefined as never as Host);
  return {
    hosts,
    scratch,
    cut: (name) => ip("-n", sw, "link", "set", hostOf(name).port, "down"),
    restore: (name) => ip("-n", sw, "link", "set", hostOf(name).port, "up"),
    spawn(name, argv, options) {
      const child = spawn("ip", ["netns", "exec", hostOf(name).ns, ...argv], { ...options, detached: true, stdio: ["ignore", "pipe", "pipe"] });
      children.add(child);
      child.once("exit", () => children.delete(child));
      return child;
    },
    destroy,
  };
}

export function killGroup(child: ChildProcess, signal: NodeJS.Signals = "SIGKILL"): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

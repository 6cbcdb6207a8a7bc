// A flight's environment: what its setup installs (node_modules, a .venv, …), built once per set of
// dependency files and shared, read-only, by every worktree of every flight on them (DESIGN §20, "Setup").
//
// The setup runs in the sandbox like any command, on a copy of the flight's clone at its base commit, with
// one difference: its network is the hub's registry proxy (agents/tools/registry-proxy.ts), reached through
// a bridge inside the sandbox's own network namespace. When it succeeds, what it added to the top of the
// workspace is copied out (by the sandbox's user, inside) to a folder of its own under
// QUORUM_HOME/environments, named by the digest of the dependency files and the command; the hub renames it
// into place and never reads inside it. Later commands see its entries at /workspace (agents/tools/sandbox.ts).
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { chownSync, existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Db } from "../../db/client";
import type { Clock } from "../../domain/clock";
import { sandboxUid, setupMinutes } from "../../domain/config";
import type { Flight } from "../../domain/flights/launch";
import { placeOf, type FlightPlace } from "../../domain/flights/place";
import { filesAt } from "../../domain/flights/repository";
import { DEPENDENCY_FILES } from "../../domain/flights/setup-command";
import { environmentDigestOf, recordSetupEnded, recordSetupProgress, recordSetupStarted, SETUP_LOG_CHARS } from "../../domain/flights/setup";
import { cloneAt } from "../../domain/host-git";
import { hubSecrets, redactValue } from "../../domain/hub-secrets";
import type { Principal } from "../../domain/principal";
import { maxMemoryBytes } from "../tools/command-limits";
import { registrySettings } from "../tools/package-registries";
import { startRegistryProxy } from "../tools/registry-proxy";
import { NoSandbox, SETUP_PATHS, sandboxed } from "../tools/sandbox";
import { ensureFlightClone } from "./workspace";

/** Bumped when what an environment holds changes shape: older ones are then built again. */
const ENVIRONMENT_FORMAT = 1;

/** The port the bridge listens on inside the setup's own network namespace (nothing else is there). */
const BRIDGE_PORT = 3128;

/** At most one progress event this often: the card moves, the journal does not fill with a download's lines. */
const PROGRESS_EVERY_MS = 1_500;

/** Where a flight's home keeps environments (beside its flights: QUORUM_HOME/environments). */
export function environmentsDirOf(place: FlightPlace): string {
  return join(place.repo, "..", "..", "..", "environments");
}

/** The folder of a built environment, by its digest. */
export function environmentPath(place: FlightPlace, digest: string): string {
  return join(environmentsDirOf(place), digest);
}

/** The environment the flight's commands see, or undefined when it has none (no setup, or not set up yet). */
export async function flightEnvironment(db: Db, place: FlightPlace): Promise<string | undefined> {
  const digest = await environmentDigestOf(db, place.flightId);
  if (!digest) return undefined;
  const dir = environmentPath(place, digest);
  return existsSync(dir) ? dir : undefined;
}

/** What decides an environment's content: the command, the dependency files at the base commit, the runtimes. */
async function digestOf(place: FlightPlace, command: string): Promise<string> {
  const files = await filesAt(cloneAt(place.repo), place.baseCommit ?? "HEAD");
  const hash = createHash("sha256").update(JSON.stringify({ format: ENVIRONMENT_FORMAT, command, node: process.version }));
  for (const name of DEPENDENCY_FILES) {
    const content = await files.read(name);
    if (content !== null) hash.update(`\0${name}\0${createHash("sha256").update(content).digest("hex")}`);
  }
  return hash.digest("hex").slice(0, 32);
}

/**
 * Inside the sandbox: the bridge to the proxy, the setup, and — when it succeeded — each new entry at the top of
 * the workspace copied out. The command comes as $1, never spliced into this script.
 */
function setupScript(): string {
  const { proxySocket, output, source } = SETUP_PATHS;
  const bridge = [
    `const net = require("node:net");`,
    `net.createServer((c) => { const u = net.connect(${JSON.stringify(proxySocket)}); c.pipe(u).pipe(c); u.on("error", () => c.destroy()); c.on("error", () => u.destroy()); })`,
    `.listen(${BRIDGE_PORT}, "127.0.0.1", () => require("node:fs").writeFileSync("/tmp/.quorum-bridge", ""));`,
  ].join("");
  const collect = [
    `[ -d node_modules ] && mkdir -p node_modules/.cache node_modules/.vite`,
    `for e in * .[!.]* ..?*; do`,
    `  { [ -e "$e" ] || [ -L "$e" ]; } || continue`,
    `  [ "$e" = .git ] && continue`,
    `  { [ -e "${source}/$e" ] || [ -L "${source}/$e" ]; } && continue`,
    `  cp -a "$e" ${output}/ || exit 125`,
    `done`,
  ].join("\n");
  return [
    `"$QUORUM_NODE" -e '${bridge}' &`,
    `i=0; while [ ! -e /tmp/.quorum-bridge ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done`,
    `sh -c "$1"; code=$?`,
    `if [ $code -ne 0 ]; then exit $code; fi`,
    `echo "[quorum] setup done; keeping what it installed"`,
    `( ${collect}\n) || { echo "[quorum] could not keep what the setup installed" >&2; exit 125; }`,
  ].join("\n");
}

export type SetupOutcome = { ok: true; environment: string | undefined } | { ok: false; reason: string };

/**
 * The flight's environment, built by its setup or reused; each step journalled (domain/flights/setup.ts).
 * A flight without a setup command has none, and needs none.
 */
export async function prepareEnvironment(db: Db, actor: Principal, flight: Flight, clock: Clock): Promise<SetupOutcome> {
  if (!flight.setupCommand) return { ok: true, environment: undefined };
  const place = placeOf(flight);
  ensureFlightClone(place);
  const command = flight.setupCommand;
  const source = flight.setupSource ?? "given";
  const digest = await digestOf(place, command);
  const target = environmentPath(place, digest);
  const ended = { flightId: flight.id, command, source, digest };
  if (existsSync(target)) {
    await recordSetupEnded(db, actor, flight, { ...ended, ok: true, reused: true, elapsedMs: 0, exitCode: 0, reason: null, log: "" }, clock);
    return { ok: true, environment: target };
  }
  await recordSetupStarted(db, actor, flight, ended, clock);
  const started = Date.now();
  const run = await runSetup(place, command, async (line) => {
    await recordSetupProgress(db, actor, flight, { flightId: flight.id, line, elapsedMs: Date.now() - started }, clock);
  });
  const log = redactValue(run.log, await hubSecrets(db));
  const elapsedMs = Date.now() - started;
  if (run.reason !== null) {
    rmSync(run.output, { recursive: true, force: true });
    await recordSetupEnded(db, actor, flight, { ...ended, ok: false, reused: false, elapsedMs, exitCode: run.exitCode, reason: run.reason, log }, clock);
    return { ok: false, reason: run.reason };
  }
  try {
    renameSync(run.output, target);
  } catch {
    // Another flight on the same dependencies finished first: its environment is the same; ours goes.
    rmSync(run.output, { recursive: true, force: true });
  }
  await recordSetupEnded(db, actor, flight, { ...ended, ok: true, reused: false, elapsedMs, exitCode: 0, reason: null, log }, clock);
  return { ok: true, environment: target };
}

interface SetupRun {
  /** The folder the environment was copied out to (renamed into place by the caller when the setup succeeded). */
  output: string;
  exitCode: number | null;
  /** Why it failed, in a sentence; null when it succeeded. */
  reason: string | null;
  log: string;
}

/** Runs the setup in the sandbox with the proxy up; `progress` hears its output's last line now and then. */
async function runSetup(place: FlightPlace, command: string, progress: (line: string) => Promise<void>): Promise<SetupRun> {
  const output = join(environmentsDirOf(place), `.building-${randomBytes(6).toString("hex")}`);
  mkdirSync(output, { recursive: true });
  if (process.getuid?.() === 0) chownSync(output, sandboxUid(), sandboxUid());
  let log = "";
  const say = (text: string) => {
    log = (log + text).slice(-SETUP_LOG_CHARS * 2);
  };
  const registries = registrySettings();
  const proxy = await startRegistryProxy(registries.hosts, (line) => say(`${line}\n`));
  const proxyUrl = `http://127.0.0.1:${BRIDGE_PORT}`;
  const env = { ...registries.env, QUORUM_NODE: process.execPath, HTTP_PROXY: proxyUrl, HTTPS_PROXY: proxyUrl, http_proxy: proxyUrl, https_proxy: proxyUrl };
  let sandbox: ReturnType<typeof sandboxed>;
  try {
    sandbox = sandboxed(["/bin/sh", "-c", setupScript(), "setup", command], place.repo, { git: cloneAt(place.repo), setup: { proxySocket: proxy.socket, output, env } });
  } catch (error) {
    await proxy.close();
    const reason = error instanceof NoSandbox ? error.message : `the setup could not start: ${(error as Error).message}`;
    return { output, exitCode: null, reason, log };
  }
  const limitMs = setupMinutes() * 60_000;
  const result = await new Promise<{ code: number | null; timedOut: boolean }>((resolve) => {
    const child = spawn(sandbox.program, sandbox.args, { cwd: "/", env: sandbox.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let lastLine = "";
    let sent = 0;
    const hear = (chunk: Buffer) => {
      const text = chunk.toString();
      say(text);
      const line = text
        .split("\n")
        .map((l) => l.trim())
        .filter(Boolean)
        .at(-1);
      if (line) lastLine = line.slice(0, 200);
      if (Date.now() - sent >= PROGRESS_EVERY_MS && lastLine) {
        sent = Date.now();
        void progress(lastLine).catch(() => {});
      }
    };
    child.stdout.on("data", hear);
    child.stderr.on("data", hear);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    }, limitMs);
    child.on("error", (error) => {
      say(`${error.message}\n`);
      clearTimeout(timer);
      resolve({ code: null, timedOut });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, timedOut });
    });
  });
  const outOfMemory = sandbox.outOfMemory();
  sandbox.release();
  await proxy.close();
  const reason = result.timedOut
    ? `the setup ran past ${setupMinutes()} minutes (QUORUM_SETUP_MINUTES) and was stopped`
    : outOfMemory
      ? `the setup ran out of memory: the sandbox allows ${maxMemoryBytes() / 1024 ** 2} MiB (QUORUM_SANDBOX_MEMORY_MB), its files included`
      : result.code === 0
        ? null
        : result.code === 125
          ? "the setup's results could not be kept (the sandbox's workspace may be too small: QUORUM_SANDBOX_MEMORY_MB)"
          : `\`${command}\` exited with code ${result.code ?? "none"}`;
  return { output, exitCode: result.code, reason, log };
}

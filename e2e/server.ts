// Starts and stops a real Quorum (`quorum start`) for the browser tests, as a user would.
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { descendants, killAll } from "../bin/processes";
import { freePort } from "../db/embedded";

export const root = join(import.meta.dirname, "..");
/** The CLI as `npx quorum` runs it: its shell script execs one node process with tsx's loader (it says why). */
export const quorumBin = join(root, "bin", "quorum.sh");

export interface QuorumServer {
  baseURL: string;
  home: string;
  port: number;
  signInUrl: string;
  env: NodeJS.ProcessEnv;
  process: ChildProcess;
  output: () => string;
}

export function newHome(): string {
  const home = mkdtempSync(join(tmpdir(), "quorum-e2e-"));
  chmodSync(home, 0o755); // the embedded Postgres runs as the postgres user
  return home;
}

/** The environment the server and the CLI share: same data folder, same port. */
export function serverEnv(home: string, port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    QUORUM_HOME: home,
    PORT: String(port),
    QUORUM_URL: `http://127.0.0.1:${port}`,
    QUORUM_HUMAN: "operator",
    // The team works without pauses here (a person watching gets QUORUM_PACE_MS, 4000 by default).
    QUORUM_PACE_MS: "0",
    // The Settings spec's webhook receiver listens on this machine, which a hub reaches only when told.
    QUORUM_WEBHOOK_ALLOW_PRIVATE: "1",
    NEXT_TELEMETRY_DISABLED: "1",
    NEXT_DIST_DIR: process.env.E2E_DIST_DIR ?? ".next",
  };
  // What a new user gets: the embedded Postgres, unless a run asks for another server.
  if (process.env.E2E_DATABASE_URL) env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  else delete env.DATABASE_URL;
  return env;
}

/** What has a Quorum's team think through the stand-in model server at `modelUrl` (test/fixtures/model-server.ts), without pauses. */
export function standInModel(modelUrl: string): Record<string, string> {
  return { QUORUM_MODEL: "stand-in", QUORUM_OPENAI_BASE_URL: `${modelUrl}/v1`, QUORUM_OPENAI_API_KEY: "sk-stand-in", QUORUM_PACE_MS: "0" };
}

/** `extraEnv` goes on top, e.g. the bench's DATABASE_URL and QUORUM_TEAM=0 (no built-in team). */
export async function startQuorum(home: string, port?: number, extraEnv: Record<string, string> = {}): Promise<QuorumServer> {
  const chosenPort = port ?? (await freePort());
  const env = { ...serverEnv(home, chosenPort), ...extraEnv };
  // A process group of its own, so a test can SIGKILL the app and its Postgres together.
  const child = spawn(quorumBin, ["start"], { cwd: root, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const signInUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`quorum start printed no sign-in URL in 240 s:\n${output}`)), 240_000);
    const check = () => {
      const match = /(http:\/\/\S+\/signin\?token=\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout!.on("data", check);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`quorum start exited with ${code}:\n${output}`));
    });
  });
  return { baseURL: `http://127.0.0.1:${chosenPort}`, home, port: chosenPort, signInUrl, env, process: child, output: () => output };
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Ctrl-C as a user would press it: the app stops and shuts its Postgres down cleanly. */
export async function stopQuorum(server: QuorumServer): Promise<void> {
  if (server.process.exitCode !== null) return;
  process.kill(-server.process.pid!, "SIGTERM");
  if (!(await waitForExit(server.process, 30_000))) killTree(server);
}

/** SIGKILL to everything the server runs: its web server, worker and Postgres have process groups of their own. */
function killTree(server: QuorumServer): void {
  const pid = server.process.pid!;
  killAll([pid, ...descendants(pid)]);
}

/** A crash: every process of the group dies at once, Postgres included. */
export async function killQuorum(server: QuorumServer): Promise<void> {
  killTree(server);
  await waitForExit(server.process, 10_000);
}

/** Runs the `quorum` CLI against a server's data folder and returns what it printed. */
export function quorumCli(env: NodeJS.ProcessEnv, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(quorumBin, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (err += c));
    child.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`quorum ${args.join(" ")} failed (${code}): ${err}${out}`))));
  });
}

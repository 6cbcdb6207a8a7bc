// `quorum start`: database, migrations, a sign-in link for the local human, then the web app.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runMigrations } from "../db/migrate";
import { connect } from "../db/client";
import { systemClock } from "../server/clock";
import { ensureHuman } from "../server/principals/create-principal";
import { issueSignInLink } from "../server/principals/sign-in";
import { appUrl, localHumanName, openDatabase } from "./database";
import { launchDemo } from "./team";

const root = join(import.meta.dirname, "..");
const nextBin = join(root, "node_modules", "next", "dist", "bin", "next");

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: root, env, stdio: "inherit" });
    child.on("exit", (code) => done(code ?? 1));
  });
}

async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the web server exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the web server did not become healthy within 60 s");
}

export async function start(): Promise<void> {
  const port = process.env.PORT ?? "3000";
  const hostname = process.env.QUORUM_HOST ?? "127.0.0.1";
  const database = await openDatabase();
  console.log(database.stop ? `Embedded Postgres is running (data in ${process.env.QUORUM_HOME ?? ".quorum"}/pg).` : "Using the database at DATABASE_URL.");
  let shuttingDown = false;
  let web: ChildProcess | undefined;
  let team: ChildProcess | undefined;
  const shutdown = async (code: number) => {
    if (shuttingDown) return;
    shuttingDown = true;
    for (const child of [team, web]) {
      if (child && child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await new Promise((r) => child.once("exit", r));
      }
    }
    await database.stop?.();
    process.exit(code);
  };
  process.on("SIGINT", () => void shutdown(0));
  process.on("SIGTERM", () => void shutdown(0));

  try {
    await runMigrations(database.url);
    const env = { ...process.env, DATABASE_URL: database.url, NEXT_TELEMETRY_DISABLED: "1", PORT: port };
    if (!existsSync(join(root, process.env.NEXT_DIST_DIR ?? ".next", "BUILD_ID"))) {
      console.log("No build found: building the web app once (about a minute)…");
      const code = await run(process.execPath, [nextBin, "build"], env);
      if (code !== 0) throw new Error(`next build failed with code ${code}`);
    }
    const connection = connect(database.url, { max: 1 });
    const human = await ensureHuman(connection.db, localHumanName(), systemClock);
    const token = await issueSignInLink(connection.db, human, systemClock);
    const flight = process.env.QUORUM_TEAM === "0" ? null : await launchDemo(connection.db, human.name, { onlyIfFirst: true });
    await connection.close();

    web = spawn(process.execPath, [nextBin, "start", "-p", port, "-H", hostname], { cwd: root, env, stdio: ["ignore", "pipe", "inherit"] });
    web.stdout?.on("data", () => {});
    web.on("exit", (code) => {
      if (!shuttingDown) {
        console.error(`The web server stopped (code ${code}).`);
        void shutdown(code ?? 1);
      }
    });
    const url = appUrl();
    await waitForHealth(`http://${hostname}:${port}`, web);
    if (process.env.QUORUM_TEAM !== "0") {
      // The built-in team works beside the app, through the same database and the same gates.
      team = spawn(join(root, "node_modules", ".bin", "tsx"), [join(root, "bin", "quorum.ts"), "worker"], { cwd: root, env, stdio: ["ignore", "inherit", "inherit"] });
      team.on("exit", (code) => {
        if (!shuttingDown) console.error(`The team worker stopped (code ${code}); the app keeps running.`);
      });
    }
    console.log(`\nQuorum is running at ${url}\n`);
    console.log(`Sign in as ${human.name} (this link works once, for 15 minutes):\n`);
    console.log(`    ${url}/signin?token=${token}\n`);
    if (flight) {
      console.log(`The demo team is fixing a failing test (goal task #${flight.goalTask.number}, ${flight.flight.mode}): watch it in the Room and on the Board.\n`);
    }
    console.log("Press Ctrl-C to stop.");
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    await shutdown(1);
  }
}

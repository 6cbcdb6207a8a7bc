// `quorum start`: database, migrations, a sign-in link for the local human, then the web app and the team.
// It supervises them. Each child runs in a process group of its own, so a Ctrl-C reaches this process
// only, which stops the worker, then the web server (its open streams cut), then Postgres, each within a
// deadline, and exits; a second Ctrl-C kills them all at once.
import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { connect } from "../db/client";
import { quorumHomeAsGiven } from "../db/home";
import { appUrl, demoFlightEnabled, flightAtOnce, inheritedEnvironment, leanApi, nextDistDir, teamEnabled, webHost, webPort } from "../domain/config";
import { systemClock } from "../domain/clock";
import { ensureHuman } from "../domain/principals/create-principal";
import { issueSignInLink, SIGN_IN_LINK_TTL_MS } from "../domain/principals/sign-in";
import { type Database, localHumanName, openDatabase } from "./database";
import { buildState } from "./build-freshness";
import { killChild, onStopSignals, spawnSupervised, stopChild } from "./processes";
import { hasAnyFlight } from "../domain/flights/launch";

const root = join(import.meta.dirname, "..");
const nextBin = join(root, "node_modules", "next", "dist", "bin", "next");
/**
 * The web process: surfaces/web/serve.ts — Next for the pages and a lean router for /api/* on one server (it says
 * why) — or, with QUORUM_LEAN_API=0, plain `next start`.
 */
function webCommand(port: string, hostname: string): string[] {
  if (!leanApi()) return [nextBin, "start", "-p", port, "-H", hostname];
  return ["--import", "tsx", join(root, "surfaces", "web", "serve.ts"), "-p", port, "-H", hostname];
}
/** How long each of the worker, the web server and Postgres may take to stop before it is killed. */
const STOP_DEADLINE_MS = 5_000;

function exitCodeOf(child: ChildProcess): Promise<number> {
  return new Promise((done) => child.on("exit", (code) => done(code ?? 1)));
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
  const port = webPort();
  const hostname = webHost();
  const children: { build?: ChildProcess; web?: ChildProcess; team?: ChildProcess } = {};
  let stopping: Promise<void> | undefined;
  let opened: Database | undefined;
  const opening: Promise<Database> = openDatabase();
  opening.then((database) => (opened = database)).catch(() => {}); // a failure is reported where it is awaited below

  // The first flight waits for the first sign-in; stopping ends that wait.
  const firstFlight = new AbortController();
  // Worker first (it writes through the app's rules), then the web server, then the database under them.
  const shutdown = (code: number) => {
    firstFlight.abort();
    stopping ??= (async () => {
      await stopChild(children.team, STOP_DEADLINE_MS);
      await stopChild(children.build, STOP_DEADLINE_MS);
      await stopChild(children.web, STOP_DEADLINE_MS);
      const database = await opening.catch(() => undefined);
      await database?.stop?.();
      process.exit(code);
    })();
    return stopping;
  };
  onStopSignals(
    () => {
      console.log("\nStopping Quorum (press Ctrl-C again to stop at once)…");
      void shutdown(0);
    },
    () => {
      console.log("Stopping at once.");
      for (const child of Object.values(children)) killChild(child);
      opened?.kill?.();
      process.exit(130);
    },
  );

  try {
    const database = await opening;
    console.log(database.stop ? `Embedded Postgres is running (data in ${quorumHomeAsGiven()}/pg).` : "Using the database at DATABASE_URL.");
    await database.migrate();
    // The app and the team get the app's role: with the embedded database, not a superuser and owner of nothing.
    const env = { ...inheritedEnvironment(), DATABASE_URL: database.url, NEXT_TELEMETRY_DISABLED: "1", PORT: port };
    const build = buildState(root, nextDistDir());
    if (build.state !== "current") {
      console.log(
        build.state === "missing"
          ? "No build found: building the web app once (about a minute)…"
          : `The code changed since the last build (${build.changed}): building the web app again (about a minute)…`,
      );
      if (stopping) return;
      children.build = spawnSupervised([nextBin, "build"], { cwd: root, env });
      const code = await exitCodeOf(children.build);
      if (stopping) return;
      if (code !== 0) throw new Error(`next build failed with code ${code}`);
    }
    const connection = connect(database.url, { max: 1 });
    const human = await ensureHuman(connection.db, localHumanName(), systemClock);
    const token = await issueSignInLink(connection.db, human, systemClock);
    // The first flight starts when someone can watch it: at the first sign-in, or now with QUORUM_FLIGHT=now;
    // QUORUM_FLIGHT=off starts none (the team still flies the flights people start).
    const wantsFlight = teamEnabled() && demoFlightEnabled() && !(await hasAnyFlight(connection.db));
    const flightNow = wantsFlight && flightAtOnce();
    const flight = flightNow
      ? await (await import("./team")).launchDemo(connection.db, human.name, { onlyIfFirst: true, origin: `Demo flight started by ${human.name} from the CLI` })
      : null;
    await connection.close();

    if (stopping) return;
    const web = spawnSupervised(webCommand(port, hostname), { cwd: root, env, stdout: "pipe" });
    children.web = web;
    web.stdout?.on("data", () => {});
    web.on("exit", (code) => {
      if (!stopping) {
        console.error(`The web server stopped (code ${code}).`);
        void shutdown(code ?? 1);
      }
    });
    const url = appUrl();
    await waitForHealth(`http://${hostname}:${port}`, web);
    if (stopping) return;
    if (teamEnabled()) {
      // The built-in team works beside the app, through the same database and the same gates.
      const team = spawnSupervised(["--import", "tsx", join(root, "bin", "quorum.ts"), "worker"], { cwd: root, env });
      children.team = team;
      team.on("exit", (code) => {
        if (!stopping) console.error(`The team worker stopped (code ${code}); the app keeps running.`);
      });
    }
    if (wantsFlight && !flightNow) {
      // The team's modules load only for a hub that flies the demo.
      import("./team")
        .then(({ launchDemoOnFirstSignIn }) => launchDemoOnFirstSignIn(database.url, human.name, firstFlight.signal))
        .then((launched) => {
          if (launched) console.log(`Someone signed in: the demo team is fixing a failing test (goal task #${launched.goalTask.number}, ${launched.flight.mode}).`);
        })
        .catch((error) => {
          if (!stopping) console.error(`The demo flight did not launch: ${error instanceof Error ? error.message : error}`);
        });
    }
    console.log(`\nQuorum is running at ${url}\n`);
    console.log(`Sign in as ${human.name} (this link works once, for ${SIGN_IN_LINK_TTL_MS / 60_000} minutes):\n`);
    console.log(`    ${url}/signin?token=${token}\n`);
    if (flight) {
      console.log(`The demo team is fixing a failing test (goal task #${flight.goalTask.number}, ${flight.flight.mode}): watch it in the Room and on the Board.\n`);
    } else if (wantsFlight) {
      console.log("The demo team starts fixing a failing test as soon as you sign in: watch it in the Room and on the Board.\n");
    }
    console.log("Press Ctrl-C to stop.");
  } catch (error) {
    if (stopping) return;
    console.error(error instanceof Error ? error.message : error);
    await shutdown(1);
  }
}

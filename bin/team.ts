// `quorum worker` hosts the built-in team's roles; `quorum demo` launches the first flight.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { connect, type Db } from "../db/client";
import { quorumHome } from "../db/home";
import { createScratchRepo, DEMO_GOAL } from "../agents/demo/scratch-repo";
import { modelClientFromEnv, modelClientsFromEnv } from "../agents/model/from-env";
import { probeLines, probeModel } from "../agents/model/probe";
import { hasAnyFlight, launchFlight } from "../domain/flights/launch";
import { ensureTeam, ROLES, type Role } from "../agents/team/team";
import { runTeamWorker, STOP_GRACE_MS } from "../agents/team/worker";
import { systemClock } from "../domain/clock";
import { coderCount, paceMs, runMaxMinutes, quorumVariables, reviewDeadlineSetting, testCommandSetting } from "../domain/config";
import { contextOf } from "../domain/context";
import { MAX_WAIT_SECONDS, waitForEvents } from "../domain/journal/wait-for-events";
import { ensureHuman, getSystemPrincipal } from "../domain/principals/create-principal";
import { openDatabase } from "./database";
import { onStopSignals } from "./processes";
import { traceRunsOfThisProcess } from "./tracing";

export function parseRoles(names: string[]): Role[] {
  if (names.length === 0) return [...ROLES];
  for (const name of names) {
    if (!(ROLES as readonly string[]).includes(name)) throw new Error(`unknown team member '${name}': choose from ${ROLES.join(", ")}`);
  }
  return names as Role[];
}

/**
 * Runs the worker until SIGINT or SIGTERM: the roles stop at their next step boundary, then the worker
 * closes its connection (and the embedded Postgres, if it started one). A second Ctrl-C exits at once.
 */
export async function worker(roles: Role[]): Promise<void> {
  const controller = new AbortController();
  const removeHandlers = onStopSignals(
    () => controller.abort(),
    () => process.exit(130),
  );
  const database = await openDatabase();
  const tracing = await traceRunsOfThisProcess("worker");
  try {
    if (controller.signal.aborted) return;
    await database.migrate();
    const connection = connect(database.url, { max: 4 });
    try {
      // Check each model once before the team uses it: one line per problem, naming the variable to fix.
      for (const line of probeLines(await probeModel(quorumVariables()))) console.log(line);
      await runTeamWorker(contextOf(connection), {
        coders: coderCount(),
        runMaxMinutes: runMaxMinutes(),
        stopGraceMs: STOP_GRACE_MS,
        roles,
        // One client per distinct model, each role given its own (QUORUM_MODEL_<ROLE> over QUORUM_MODEL).
        model: null,
        models: modelClientsFromEnv(quorumVariables()) ?? undefined,
        signal: controller.signal,
        paceMs: paceMs(),
        testCommand: testCommandSetting(),
        reviewDeadlineMs: reviewDeadlineSetting(),
      });
      console.log("Team worker stopped.");
    } finally {
      await connection.close();
    }
  } finally {
    // What the runs' spans still hold goes out before the process does (within the stop deadline).
    await tracing?.shutdown();
    await database.stop?.();
    removeHandlers();
  }
}

/** Creates the scratch repository and posts the goal; the worker (`npm start` runs one) does the rest. */
export async function launchDemo(db: Db, humanName: string, options: { onlyIfFirst?: boolean; origin?: string } = {}) {
  if (options.onlyIfFirst) {
    if (await hasAnyFlight(db)) return null;
  }
  await ensureTeam(db, systemClock);
  const human = await ensureHuman(db, humanName, systemClock);
  const parent = join(quorumHome(), "demo");
  mkdirSync(parent, { recursive: true });
  const repo = createScratchRepo(parent);
  const model = modelClientFromEnv(quorumVariables());
  const origin = options.origin ?? `Demo flight started by ${human.name} from the CLI`;
  return launchFlight(db, human, { goal: DEMO_GOAL, repo, mode: model ? model.name : "scripted", origin, demo: true }, systemClock);
}

/**
 * The first flight waits for a person: it launches once a human has signed in (the server journals
 * HumanSignedIn when a sign-in link is used), so whoever opens the browser sees it from its first step.
 * Resolves with the flight, or null when `signal` aborts first or a flight already exists.
 */
export async function launchDemoOnFirstSignIn(url: string, humanName: string, signal: AbortSignal): Promise<Awaited<ReturnType<typeof launchDemo>>> {
  const connection = connect(url, { max: 1 });
  try {
    const server = contextOf(connection);
    const system = await getSystemPrincipal(server.db);
    let after: number | undefined;
    while (!signal.aborted) {
      const news = await waitForEvents(server.db, system, { after, kinds: ["HumanSignedIn"], timeoutSeconds: MAX_WAIT_SECONDS }, server.subscribe, signal);
      after = news.next;
      const first = news.items[0];
      if (!first || signal.aborted) continue;
      return await launchDemo(server.db, humanName, { onlyIfFirst: true, origin: `Demo flight started as ${first.actorName ?? humanName} signed in` });
    }
    return null;
  } finally {
    await connection.close();
  }
}

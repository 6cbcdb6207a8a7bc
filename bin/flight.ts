// `quorum flight start|list`: give the built-in team a goal on a repository of yours, and see its flights.
import { resolve } from "node:path";
import type { Db } from "../db/client";
import { systemClock } from "../domain/clock";
import { appUrl } from "../domain/config";
import { startFlightInput } from "../domain/flights/launch";
import { startFlight } from "../domain/flights/start";
import { listFlights, type FlightView } from "../domain/flights/view";
import { ensureHuman } from "../domain/principals/create-principal";

export const FLIGHT_USAGE = `  quorum flight start --repo DIR|URL --goal TEXT [--test CMD] [--setup CMD] [--allowance TOKENS] [--draft]
                                        give the team a goal on your repository (it works in its own clone and
                                        integrates into the branch quorum/flight-<n> there; your checkout is untouched);
                                        --setup installs its dependencies first (detected when absent; "" for none);
                                        a repository's https URL comes back as a pull request, --draft opens it once green
  quorum flight list                    the flights, newest first: status, branch, tasks, spend`;

export interface FlightStartOptions {
  repo?: string;
  goal?: string;
  test?: string;
  setup?: string;
  allowance?: string;
  draft?: boolean;
}

/** Starts a flight as the local human; the team worker that `npm start` runs takes it. */
export async function flightStartCommand(db: Db, human: string, typedIn: string, options: FlightStartOptions, print = console.log): Promise<number> {
  const parsed = startFlightInput.safeParse({
    // A folder is read from where the command was typed; a URL is kept as given.
    repo: options.repo ? (/^[a-z][a-z0-9+.-]*:\/\//i.test(options.repo) ? options.repo : resolve(typedIn, options.repo)) : undefined,
    goal: options.goal,
    ...(options.test ? { testCommand: options.test } : {}),
    ...(options.setup !== undefined ? { setupCommand: options.setup } : {}),
    ...(options.allowance ? { allowance: Number(options.allowance) } : {}),
    ...(options.draft ? { draftPullRequest: true } : {}),
  });
  if (!parsed.success) {
    print(`quorum flight start: ${parsed.error.issues.map((issue) => `${issue.path.join(".") || "input"}: ${issue.message}`).join("; ")}`);
    print(FLIGHT_USAGE);
    return 2;
  }
  const flight = await startFlight(db, await ensureHuman(db, human, systemClock), parsed.data, systemClock);
  const setup = flight.setup ? `setup: ${flight.setup.command} (${flight.setup.source})` : "no setup";
  print(
    `Flight ${flight.number} started on ${flight.source}: the team integrates into ${flight.branch} (from ${flight.baseCommit?.slice(0, 7)}), ${setup}, tests: ${flight.testCommand}.`,
  );
  print(`Its goal is task #${flight.goalTask.number}; watch it at ${appUrl()}/board/${flight.goalTask.number}`);
  return 0;
}

function line(flight: FlightView): string {
  const done = flight.tasks.filter((t) => t.status === "done").length;
  const spend = flight.budget ? `${flight.budget.spent.toLocaleString("en-US")} of ${flight.budget.allowance.toLocaleString("en-US")} tokens` : "no allowance";
  return `${String(flight.number).padStart(3)}  ${flight.status.padEnd(8)} ${flight.branch.padEnd(18)} ${done}/${flight.tasks.length} tasks done  ${spend}  ${flight.goal.slice(0, 60)}`;
}

export async function flightListCommand(db: Db, print = console.log): Promise<number> {
  const { items } = await listFlights(db);
  if (items.length === 0) print("No flights yet: `quorum flight start --repo DIR --goal TEXT` starts one.");
  for (const flight of items) print(line(flight));
  return 0;
}

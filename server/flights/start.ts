// Someone asks the team to fly a goal (POST /api/flights, the New flight dialog, `quorum flight start`, MCP's
// start_flight, A2A's team skill): the team running beside the hub takes it. The scripted team only knows the
// demo's script, so a flight of one's own needs a model (QUORUM_MODEL), and a team worker to fly it.
//
// Who may ask (DESIGN §13): a human, on any repository of theirs, and the goal waits for their review. An agent
// only on a repository a human has already given the team, whose human then reviews the goal, and for no more
// than the default allowance (a human tops a flight up): an agent neither points the team at a folder no human
// chose nor spends beyond what a human can see coming.
import { and, desc, eq } from "drizzle-orm";
import { flights, principals } from "../../db/schema";
import type { Db } from "../../db/client";
import { DEFAULT_FLIGHT_ALLOWANCE } from "../budgets/flight-budget";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { toPrincipal, type Principal } from "../principal";
import { launchFlight, type StartFlightInput } from "./launch";
import { inspectRepository } from "./repository";
import { readTeamStatus } from "./team-status";
import { readFlight, type FlightView } from "./view";

/** The human an agent's flight on `repo` waits for: the last human who flew that repository; refused when none has. */
async function humanWhoFlew(db: Db, repo: string): Promise<Principal> {
  const { path } = await inspectRepository(repo);
  const [row] = await db
    .select({ human: principals })
    .from(flights)
    .innerJoin(principals, eq(principals.id, flights.createdBy))
    .where(and(eq(flights.source, path), eq(principals.kind, "human")))
    .orderBy(desc(flights.createdAt))
    .limit(1);
  if (!row) {
    throw fail.forbidden(
      "flight",
      `no human has given the team ${path} yet: an agent asks for flights only on a repository a human has flown, so ask a human to start the first one`,
    );
  }
  return toPrincipal(row.human);
}

export async function startFlight(db: Db, caller: Principal, input: StartFlightInput, clock: Clock): Promise<FlightView> {
  if (caller.kind === "system") throw fail.forbidden("flight", "the system principal does not start flights");
  if (caller.kind === "agent" && (input.allowance ?? DEFAULT_FLIGHT_ALLOWANCE) > DEFAULT_FLIGHT_ALLOWANCE) {
    throw fail.forbidden("flight", `an agent's flight gets at most the default allowance (${DEFAULT_FLIGHT_ALLOWANCE} tokens); its human tops it up`);
  }
  const team = await readTeamStatus(db);
  if (!team.mode) {
    throw fail.conflict("flight", "no_team", "no team worker has started yet: start Quorum with its team (`npm start`), or run `quorum worker` beside it");
  }
  if (team.mode === "scripted") {
    throw fail.conflict(
      "flight",
      "scripted_team",
      "the team runs scripted (no model is configured), and its script only flies the demo: set QUORUM_MODEL (README, Configuration) and restart to fly your own repository",
    );
  }
  const approver = caller.kind === "human" ? caller : await humanWhoFlew(db, input.repo);
  const { flight } = await launchFlight(db, caller, { ...input, mode: team.mode, approver }, clock);
  return readFlight(db, flight.id, caller);
}

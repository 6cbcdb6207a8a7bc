// Someone asks the team to fly a goal (POST /api/flights, the New flight dialog, `quorum flight start`, MCP's
// start_flight, A2A's team skill): the team running beside the hub takes it. The scripted team only knows the
// demo's script, so a flight of one's own needs a model (QUORUM_MODEL), and a team worker to fly it.
//
// Who may ask (DESIGN §13): a human, on any repository of theirs, and the goal waits for their review. An agent
// only where a human allowed it to (./agent-allowance.ts, off by default) and only on a repository a human has
// already given the team, whose human then reviews the goal, set up and tested as that human's flight was. All of
// that is decided from the request and the database before any folder of this machine is looked at, so an
// agent's key learns nothing about which folders exist or hold a repository.
import { resolve } from "node:path";
import { and, desc, eq } from "drizzle-orm";
import { flights, principals } from "../../db/schema";
import type { Db } from "../../db/client";
import { DEFAULT_FLIGHT_ALLOWANCE } from "../budgets/flight-budget";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { toPrincipal, type Principal } from "../principal";
import { type FromIssue, launchFlight, type StartFlightInput } from "./launch";
import { requireFlightAllowance } from "./agent-allowance";
import { readTeamStatus } from "./team-status";
import { readFlight, type FlightView } from "./view";

/**
 * The human an agent's flight on `repo` waits for, and the test and setup commands it runs: the last human's
 * flight on that very path (compared as text, never looked up on disk). Refused alike whether the folder exists or not.
 */
async function humanWhoFlew(db: Db, agent: Principal, repo: string): Promise<{ human: Principal; testCommand: string | null; setupCommand: string | null }> {
  const path = resolve("/", repo);
  const [row] = await db
    .select({ human: principals, testCommand: flights.testCommand, setupCommand: flights.setupCommand })
    .from(flights)
    .innerJoin(principals, eq(principals.id, flights.createdBy))
    .where(and(eq(flights.source, path), eq(principals.kind, "human")))
    .orderBy(desc(flights.createdAt))
    .limit(1);
  if (!row) {
    throw fail.forbidden("flight", `${agent.name} asks for flights only on a repository a human has flown, and no human has flown ${path}: ask a human to start the first one`);
  }
  return { human: toPrincipal(row.human), testCommand: row.testCommand, setupCommand: row.setupCommand };
}

/** `fromIssue`: a human starts a flight proposed from a forge's issue (./proposals.ts). */
export async function startFlight(db: Db, caller: Principal, input: StartFlightInput, clock: Clock, fromIssue?: FromIssue): Promise<FlightView> {
  if (caller.kind === "system") throw fail.forbidden("flight", "the system principal does not start flights");
  let asked: StartFlightInput & { approver?: Principal } = input;
  if (caller.kind === "agent") {
    const allowance = input.allowance ?? DEFAULT_FLIGHT_ALLOWANCE;
    if (allowance > DEFAULT_FLIGHT_ALLOWANCE) {
      throw fail.forbidden("flight", `an agent's flight gets at most the default allowance (${DEFAULT_FLIGHT_ALLOWANCE} tokens); its human tops it up`);
    }
    await requireFlightAllowance(db, caller, allowance);
    const { human, testCommand, setupCommand } = await humanWhoFlew(db, caller, input.repo);
    if (input.testCommand !== undefined && input.testCommand !== testCommand) {
      throw fail.forbidden(
        "flight",
        `an agent's flight runs the tests as ${human.name}'s last flight on this repository did (\`${testCommand ?? "detected"}\`): leave testCommand out`,
      );
    }
    if (input.setupCommand !== undefined && input.setupCommand !== (setupCommand ?? "")) {
      throw fail.forbidden(
        "flight",
        `an agent's flight is set up as ${human.name}'s last flight on this repository was (\`${setupCommand ?? "no setup"}\`): leave setupCommand out`,
      );
    }
    asked = { ...input, testCommand: testCommand ?? undefined, setupCommand: setupCommand ?? "", approver: human };
  }
  const team = await readTeamStatus(db);
  if (!team.mode) {
    throw fail.conflict("flight", "no_team", "no team worker has started yet: start Quorum with its team (`npm start`), or run `quorum worker` beside it");
  }
  if (team.mode === "scripted") {
    throw fail.conflict(
      "flight",
      "scripted_team",
      "the team runs scripted (no model is configured), and its script only flies the demo: set QUORUM_MODEL (docs/OPERATING.md, Configuration) and restart to fly your own repository",
    );
  }
  const { flight } = await launchFlight(db, caller, { ...asked, mode: team.mode, approver: asked.approver ?? caller, fromIssue }, clock);
  return readFlight(db, flight.id, caller);
}

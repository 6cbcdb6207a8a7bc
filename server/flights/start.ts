// A human starts a flight on a repository of theirs (POST /api/flights, the New flight dialog, `quorum
// flight start`): the team running beside the hub takes it. The scripted team only knows the demo's script,
// so a flight of one's own needs a model (QUORUM_MODEL), and a team worker to fly it.
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import type { Principal } from "../principal";
import { launchFlight, type StartFlightInput } from "./launch";
import { readTeamStatus } from "./team-status";
import { readFlight, type FlightView } from "./view";

export async function startFlight(db: Db, human: Principal, input: StartFlightInput, clock: Clock): Promise<FlightView> {
  if (human.kind !== "human") throw fail.forbidden("flight", "only humans start flights: a flight's goal waits for its human's review");
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
  const { flight } = await launchFlight(db, human, { ...input, mode: team.mode }, clock);
  return readFlight(db, flight.id, human);
}

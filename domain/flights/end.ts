// How a flight ends, by its goal's human: merged (the accepted branch brought into the branch the flight started
// from, in the user's repository) or closed without merging (an open goal cancelled with an ADR of the reason).
// Each holds the flight's row while it acts, so two clicks never merge twice, and journals in that transaction.
import { eq } from "drizzle-orm";
import { z } from "zod";
import { flights } from "../../db/schema";
import type { Db, Tx } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { isUuid } from "../ids";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { cancelLockedTask } from "../tasks/cancel";
import { textField } from "../tasks/text";
import { lockTask, type TaskRow } from "../tasks/view";
import { lastIntegratedCommit } from "./integrate";
import type { Flight } from "./launch";
import { mergeIntoSource } from "./merge-git";
import { type FlightStage, STAGE_WORDS, stageOf } from "./stage";

export const closeFlightInput = z.strictObject({ reason: textField(2_000, "say why the flight closes without merging", 3) });
export type CloseFlightInput = z.infer<typeof closeFlightInput>;

async function lockOwnFlight(tx: Tx, human: Principal, flightId: string, act: string): Promise<{ flight: Flight; goal: TaskRow; stage: FlightStage }> {
  if (human.kind !== "human") throw fail.forbidden("flight", `only the human who posted a flight's goal may ${act} it`);
  const [flight] = isUuid(flightId) ? await tx.select().from(flights).where(eq(flights.id, flightId)).for("update") : [];
  if (!flight) throw fail.notFound("flight", `no flight ${flightId.slice(0, 64)}`);
  const goal = await lockTask(tx, flight.goalTaskId);
  if (goal.approverId !== human.id) throw fail.forbidden("flight", `only the human who posted goal #${goal.number} may ${act} flight ${flight.number}`);
  return { flight, goal, stage: stageOf(flight, goal.status) };
}

function refuseEnded(flight: Flight, stage: FlightStage): void {
  if (stage === "merged") throw fail.conflict("flight", "flight_ended", `flight ${flight.number} is already merged`);
  if (stage === "closed") throw fail.conflict("flight", "flight_ended", `flight ${flight.number} is closed`);
}

/** Merges an accepted flight; refused (409 merge_refused, with git's reason) whenever git would not do it cleanly. */
export async function mergeFlight(db: Db, human: Principal, flightId: string, clock: Clock): Promise<Flight> {
  return db.transaction(async (tx) => {
    const { flight, goal, stage } = await lockOwnFlight(tx, human, flightId, "merge");
    refuseEnded(flight, stage);
    if (stage !== "accepted") {
      throw fail.conflict("flight", "not_accepted", `flight ${flight.number} is ${STAGE_WORDS[stage].toLowerCase()}: accept its goal #${goal.number} before merging`);
    }
    if (!flight.source || !flight.branch) throw fail.conflict("flight", "merge_refused", `flight ${flight.number} worked in place: there is no branch to merge`);
    // The hub's clone of a remote follows the remote: a merge there would be undone by the next fetch.
    if (flight.remote) {
      throw fail.conflict("flight", "merge_refused", `flight ${flight.number}'s branch ${flight.branch} is on ${flight.remote}: merge it there (a pull request, say)`);
    }
    if (!flight.baseBranch) {
      throw fail.conflict("flight", "merge_refused", `flight ${flight.number} did not start from a branch (a detached HEAD): merge ${flight.branch} yourself where you want it`);
    }
    const reviewed = await lastIntegratedCommit(tx, flight.id);
    if (!reviewed) throw fail.conflict("flight", "merge_refused", `flight ${flight.number} integrated nothing: there is nothing to merge`);
    const result = await mergeIntoSource({
      source: flight.source,
      branch: flight.branch,
      reviewed,
      into: flight.baseBranch,
      message: `Merge flight ${flight.number}: ${flight.goal.split("\n")[0].slice(0, 120)}\n\nReviewed and merged by ${human.name} in Quorum (${flight.branch}).`,
      identity: { name: human.name, email: `${human.name.replace(/[^A-Za-z0-9._-]/g, "-")}@quorum.localhost` },
    });
    if ("refused" in result) throw fail.conflict("flight", "merge_refused", result.refused);
    const now = clock.now();
    const [merged] = await tx.update(flights).set({ mergedAt: now, mergedCommit: result.merged.commit, updatedAt: now }).where(eq(flights.id, flight.id)).returning();
    await appendEvent(tx, {
      kind: "FlightMerged",
      actor: human.id,
      taskId: goal.id,
      t: now,
      data: {
        flightId: flight.id,
        number: flight.number,
        source: flight.source,
        into: flight.baseBranch,
        branch: flight.branch,
        commit: result.merged.commit,
        how: result.merged.how,
      },
    });
    return merged;
  });
}

/** Closes a flight without merging, once the team's work on it is over; its open goal is cancelled with an ADR of the reason. */
export async function closeFlight(db: Db, human: Principal, flightId: string, input: CloseFlightInput, clock: Clock): Promise<Flight> {
  return db.transaction(async (tx) => {
    const { flight, goal, stage } = await lockOwnFlight(tx, human, flightId, "close");
    refuseEnded(flight, stage);
    if (stage === "planning" || stage === "working") {
      throw fail.conflict("flight", "still_flying", `the team is still working on flight ${flight.number}: close it once its goal is back with you`);
    }
    const now = clock.now();
    const goalCancelled = goal.status !== "done";
    if (goalCancelled) {
      const adr = {
        title: `Close flight ${flight.number} without merging`,
        context: `Flight ${flight.number} worked on: ${flight.goal}`.slice(0, 20_000),
        decision: input.reason,
        consequences: `The goal is cancelled and ${flight.branch ?? "its branch"} is not merged; the branch stays where it is.`,
      };
      await cancelLockedTask(tx, human, goal, { adr }, now);
    }
    const [closed] = await tx.update(flights).set({ closedAt: now, closedReason: input.reason, updatedAt: now }).where(eq(flights.id, flight.id)).returning();
    await appendEvent(tx, {
      kind: "FlightClosed",
      actor: human.id,
      taskId: goal.id,
      t: now,
      data: { flightId: flight.id, number: flight.number, reason: input.reason, goalCancelled },
    });
    return closed;
  });
}

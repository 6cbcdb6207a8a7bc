// A draft pull request, opened while the goal waited for its human (./pull-request.ts), is marked ready for review
// once the goal is accepted, its body saying so. GitHub's REST API cannot lift a draft: its GraphQL mutation
// markPullRequestReadyForReview does, by the pull request's node id. Marked once: FlightPullRequestReady records it.
import { and, eq, isNotNull, isNull, notExists } from "drizzle-orm";
import { events, flights, tasks } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { appUrl } from "../config";
import { redactText } from "../hub-secrets";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { clearForgeRefusal, ForgeRefused } from "./forge-refusal";
import { githubOf, pullRequestBody } from "./pull-request";
import { readFlight } from "./view";

const READY = `mutation ($id: ID!) { markPullRequestReadyForReview(input: { pullRequestId: $id }) { pullRequest { number isDraft } } }`;

/** The next flight whose draft pull request's goal was accepted and which is not marked ready yet, or null. */
async function nextAcceptedDraft(db: Db) {
  const [row] = await db
    .select({ flight: flights })
    .from(flights)
    .innerJoin(tasks, eq(tasks.id, flights.goalTaskId))
    .where(
      and(
        eq(flights.draftPullRequest, true),
        isNotNull(flights.pullRequestNumber),
        isNull(flights.mergedAt),
        isNull(flights.closedAt),
        eq(tasks.status, "done"),
        notExists(
          db
            .select({ id: events.id })
            .from(events)
            .where(and(eq(events.kind, "FlightPullRequestReady"), eq(events.taskId, flights.goalTaskId))),
        ),
      ),
    )
    .orderBy(flights.number)
    .limit(1);
  return row?.flight ?? null;
}

/**
 * Marks one accepted flight's draft pull request ready for review, with its body as the accepted flight's, and
 * journals FlightPullRequestReady; false when none waits. A forge that refuses throws with its words, never the token.
 */
export async function readyNextDraft(db: Db, actor: Principal, clock: Clock, hub = appUrl()): Promise<boolean> {
  const flight = await nextAcceptedDraft(db);
  if (!flight) return false;
  const forge = await githubOf(db, flight.remote!);
  if (!forge) return false;
  const { github, where } = forge;
  const pullRequest = flight.pullRequestNumber!;
  try {
    const { data: pull } = await github.rest.pulls.get({ ...where, pull_number: pullRequest });
    await github.rest.pulls.update({ ...where, pull_number: pullRequest, body: pullRequestBody(await readFlight(db, flight.id), hub) });
    if (pull.draft) await github.graphql(READY, { id: pull.node_id });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ForgeRefused(flight, "ready", forge.host, redactText(message, [{ label: "the forge token", value: forge.token }]));
  }
  await db.transaction(async (tx) => {
    const now = clock.now();
    // Its own lock: two orchestrators marking the same draft journal it once.
    const [locked] = await tx.select({ id: flights.id }).from(flights).where(eq(flights.id, flight.id)).for("update");
    if (!locked) return;
    await clearForgeRefusal(tx, actor, flight.id, now);
    const [seen] = await tx
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.kind, "FlightPullRequestReady"), eq(events.taskId, flight.goalTaskId)))
      .limit(1);
    if (seen) return;
    await appendEvent(tx, {
      kind: "FlightPullRequestReady",
      actor: actor.id,
      taskId: flight.goalTaskId,
      t: now,
      data: { flightId: flight.id, number: flight.number, pullRequest, url: flight.pullRequestUrl! },
    });
  });
  return true;
}

// What became of a remote flight's pull request on its forge: merged there, the flight is merged; closed
// unmerged, the flight is closed, with that as its reason. Asked of GitHub at the team's turns, each pull
// request at most once a minute (GitHub allows 5,000 requests an hour a token); webhooks will say it sooner.
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import { flights } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { githubOf } from "./pull-request";

/** How often one pull request is asked about. */
export const PULL_REQUEST_CHECK_MS = 60_000;
const lastAsked = new Map<string, number>();

/**
 * Asks the forge about the open pull requests due a look and ends each flight whose pull request was merged
 * or closed there (FlightPullRequestMerged / FlightPullRequestClosed); true when one ended.
 */
export async function followPullRequests(db: Db, actor: Principal, clock: Clock): Promise<boolean> {
  const now = clock.now().getTime();
  const open = await db
    .select()
    .from(flights)
    .where(and(isNotNull(flights.pullRequestNumber), isNotNull(flights.remote), isNull(flights.mergedAt), isNull(flights.closedAt)))
    .orderBy(flights.number)
    .limit(50);
  let ended = false;
  for (const flight of open) {
    if (now - (lastAsked.get(flight.id) ?? 0) < PULL_REQUEST_CHECK_MS) continue;
    lastAsked.set(flight.id, now);
    const forge = await githubOf(db, flight.remote!);
    if (!forge) continue;
    const { data: pull } = await forge.github.rest.pulls.get({ ...forge.where, pull_number: flight.pullRequestNumber! });
    if (pull.state !== "closed") continue;
    const at = clock.now();
    await db.transaction(async (tx) => {
      const base = { flightId: flight.id, number: flight.number, pullRequest: pull.number, url: pull.html_url };
      if (pull.merged_at) {
        const [done] = await tx
          .update(flights)
          .set({ mergedAt: new Date(pull.merged_at), mergedCommit: pull.merge_commit_sha ?? null, updatedAt: at })
          .where(and(eq(flights.id, flight.id), isNull(flights.mergedAt), isNull(flights.closedAt)))
          .returning({ id: flights.id });
        if (done)
          await appendEvent(tx, { kind: "FlightPullRequestMerged", actor: actor.id, taskId: flight.goalTaskId, t: at, data: { ...base, commit: pull.merge_commit_sha ?? null } });
      } else {
        const reason = `its pull request #${pull.number} was closed on ${forge.host} without merging`;
        const [done] = await tx
          .update(flights)
          .set({ closedAt: at, closedReason: reason, updatedAt: at })
          .where(and(eq(flights.id, flight.id), isNull(flights.mergedAt), isNull(flights.closedAt)))
          .returning({ id: flights.id });
        if (done) await appendEvent(tx, { kind: "FlightPullRequestClosed", actor: actor.id, taskId: flight.goalTaskId, t: at, data: base });
      }
    });
    ended = true;
  }
  return ended;
}

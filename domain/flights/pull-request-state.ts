// What became of a remote flight's pull request on its forge: merged there, the flight is merged; closed
// unmerged, the flight is closed, with that as its reason; a review asking changes or a failed check comes back as
// rework (./pull-request-feedback.ts). Asked of GitHub at the team's turns: at once after a webhook delivery about
// it, else (where its forge polls) at most once a minute (GitHub allows 5,000 requests an hour a token).
import { and, eq, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import { flights, forgeDeliveries, type PullRequestCheck } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { redactText } from "../hub-secrets";
import { clearForgeRefusal, ForgeRefused, recordForgeRefusal } from "./forge-refusal";
import { githubOf } from "./pull-request";
import { feedbackOf, fileFeedback } from "./pull-request-feedback";
import { checkState } from "./pull-request-checks";
import type { Flight } from "./launch";

/** How often one pull request is asked about. */
export const PULL_REQUEST_CHECK_MS = 60_000;

/** What one look at a pull request changed: its flight ended there, or rework was filed from it. */
export interface PullRequestNews {
  flightNumber: number;
  pullRequest: number;
  ended: "merged" | "closed" | null;
  filed: { id: string; number: number; title: string }[];
}

/** A webhook delivery about the flight's pull request came after the hub last read it. */
const deliveredSince = sql`exists (select from ${forgeDeliveries} d where d.flight_id = ${flights.id} and d.received_at > ${flights.pullRequestCheckedAt})`;

/** Open pull requests due a look: never read, a delivery about it since, or (polling) a minute since the last. */
async function pullRequestsDue(db: Db, now: Date) {
  const minuteAgo = new Date(now.getTime() - PULL_REQUEST_CHECK_MS);
  return db
    .select({ flight: flights, delivered: sql<boolean>`${deliveredSince}` })
    .from(flights)
    .where(
      and(
        isNotNull(flights.pullRequestNumber),
        isNotNull(flights.remote),
        isNull(flights.mergedAt),
        isNull(flights.closedAt),
        or(isNull(flights.pullRequestCheckedAt), lte(flights.pullRequestCheckedAt, minuteAgo), deliveredSince),
      ),
    )
    .orderBy(flights.pullRequestCheckedAt, flights.number)
    .limit(20);
}

/**
 * Asks the forge about the open pull requests due a look: ends each flight whose pull request was merged or
 * closed there (FlightPullRequestMerged / FlightPullRequestClosed), and files what came back on an open one as
 * rework approved by `reviewerId`. What changed, per pull request.
 */
export async function followPullRequests(db: Db, actor: Principal, reviewerId: string, clock: Clock): Promise<PullRequestNews[]> {
  const news: PullRequestNews[] = [];
  for (const { flight, delivered } of await pullRequestsDue(db, clock.now())) {
    const forge = await githubOf(db, flight.remote!);
    // A forge that does not poll is asked once, then only when a delivery says something happened.
    if (!forge || (!forge.pollPullRequests && flight.pullRequestCheckedAt && !delivered)) continue;
    await db.update(flights).set({ pullRequestCheckedAt: clock.now() }).where(eq(flights.id, flight.id));
    let read: Awaited<ReturnType<typeof readOnForge>>;
    try {
      read = await readOnForge(db, forge, flight);
    } catch (error) {
      // Read again at the next look; its human sees why meanwhile.
      const reason = redactText(error instanceof Error ? error.message : String(error), [{ label: "the forge token", value: forge.token }]);
      await recordForgeRefusal(db, actor, new ForgeRefused(flight, "read", forge.host, reason), clock);
      continue;
    }
    if (flight.forgeRefusal) await db.transaction((tx) => clearForgeRefusal(tx, actor, flight.id, clock.now()));
    const { pull, checks, feedback } = read;
    if (pull.state !== "closed") {
      await recordChecks(db, actor, flight, pull.number, checks, clock.now());
      const filed = feedback.length ? await fileFeedback(db, actor, reviewerId, flight.id, pull.number, feedback, clock.now()) : [];
      if (filed.length) news.push({ flightNumber: flight.number, pullRequest: pull.number, ended: null, filed });
      continue;
    }
    const at = clock.now();
    await db.transaction(async (tx) => {
      const base = { flightId: flight.id, number: flight.number, pullRequest: pull.number, url: pull.html_url };
      if (pull.merged_at) {
        const [done] = await tx
          .update(flights)
          .set({ mergedAt: new Date(pull.merged_at), mergedCommit: pull.merge_commit_sha ?? null, updatedAt: at })
          .where(and(eq(flights.id, flight.id), isNull(flights.mergedAt), isNull(flights.closedAt)))
          .returning({ id: flights.id });
        if (!done) return;
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
    news.push({ flightNumber: flight.number, pullRequest: pull.number, ended: pull.merged_at ? "merged" : "closed", filed: [] });
  }
  return news;
}

/** The pull request as its forge has it now: its state, and while open its checks and what came back unanswered. */
async function readOnForge(db: Db, forge: NonNullable<Awaited<ReturnType<typeof githubOf>>>, flight: Flight) {
  const { data: pull } = await forge.github.rest.pulls.get({ ...forge.where, pull_number: flight.pullRequestNumber! });
  if (pull.state === "closed") return { pull, checks: [] as PullRequestCheck[], feedback: [] };
  return { pull, ...(await feedbackOf(db, forge, flight, pull)) };
}

/** Keeps the pull request's checks as read, journalling FlightPullRequestChecks when they changed (so pages update). */
async function recordChecks(db: Db, actor: Principal, flight: Flight, pullRequest: number, checks: PullRequestCheck[], now: Date): Promise<void> {
  const sorted = [...checks].sort((a, b) => a.name.localeCompare(b.name));
  if (JSON.stringify(sorted) === JSON.stringify(flight.pullRequestChecks ?? [])) return;
  await db.transaction(async (tx) => {
    await tx.update(flights).set({ pullRequestChecks: sorted }).where(eq(flights.id, flight.id));
    const counts = { passed: 0, failed: 0, pending: 0 };
    for (const check of sorted) counts[checkState(check)] += 1;
    await appendEvent(tx, {
      kind: "FlightPullRequestChecks",
      actor: actor.id,
      taskId: flight.goalTaskId,
      t: now,
      data: { flightId: flight.id, number: flight.number, pullRequest, ...counts },
    });
  });
}

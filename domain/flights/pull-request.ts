// A remote flight's work handed back where the team's humans review code: once its goal is accepted (or, when
// its human chose a draft, as soon as it is green: ./draft-pull-request.ts marks it ready on acceptance), the
// hub opens a pull request on the remote's forge (GitHub's REST API, through @octokit/rest) from the flight's
// branch, which each integration already pushed, into the branch it started from. Its body is the goal, the
// tasks, the spend and a link back to the flight. Opened once: a crash between GitHub's answer and the
// record finds the same pull request again by its head, rather than opening a second.
import { Octokit } from "@octokit/rest";
import { and, eq, isNotNull, isNull, or } from "drizzle-orm";
import { flights, tasks } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { appUrl } from "../config";
import { forgeOf } from "../forges/hosts";
import { redactText } from "../hub-secrets";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import type { Flight } from "./launch";
import { clearForgeRefusal, ForgeRefused } from "./forge-refusal";
import { parseRemote } from "./remote";
import { readFlight, type FlightView } from "./view";

/** `owner` and `repo` of a GitHub URL's path (`/owner/repo.git`); null for a path of another shape. */
export function repositoryOf(url: string): { owner: string; repo: string } | null {
  const [owner, repo, ...rest] = new URL(url).pathname.replace(/^\/+|\/+$/g, "").split("/");
  if (!owner || !repo || rest.length) return null;
  return { owner, repo: repo.replace(/\.git$/, "") };
}

/** `host/owner/repo` in lower case (GitHub's names ignore case, and `.git` is optional); null for a URL of another shape. */
export function repositoryKey(url: string): string | null {
  try {
    const remote = parseRemote(url);
    const where = remote ? repositoryOf(remote.url) : null;
    return remote && where ? `${remote.host}/${where.owner}/${where.repo}`.toLowerCase() : null;
  } catch {
    return null;
  }
}

/** GitHub's client for a remote flight's repository, with its owner and name; null when its host is no connected GitHub. */
export async function githubOf(
  db: Db,
  url: string,
): Promise<{ github: Octokit; where: { owner: string; repo: string }; host: string; token: string; pollPullRequests: boolean } | null> {
  const remote = parseRemote(url);
  const forge = remote ? await forgeOf(db, remote.host) : null;
  const where = remote ? repositoryOf(remote.url) : null;
  if (!remote || forge?.kind !== "github" || !where) return null;
  return {
    github: new Octokit({ auth: forge.token, baseUrl: forge.apiUrl, userAgent: "quorum" }),
    where,
    host: remote.host,
    token: forge.token,
    pollPullRequests: forge.pollPullRequests,
  };
}

/** The pull request's words: what was asked, what the team did, what it cost, and where to see the rest. */
export function pullRequestBody(view: FlightView, hub: string): string {
  const tasksDone = view.tasks.map((t) => `- #${t.number} ${t.title}${t.ownerName ? ` — ${t.ownerName}` : ""}${t.integrated ? "" : " (not integrated)"}`);
  const spend = view.budget ? `${view.budget.spent.toLocaleString("en")} of ${view.budget.allowance.toLocaleString("en")} tokens` : "not recorded";
  return [
    view.goal,
    "",
    `### Tasks (${view.tasks.length})`,
    ...(tasksDone.length ? tasksDone : ["- none"]),
    "",
    `**Tests:** \`${view.testCommand ?? "the repository's suite"}\` passes on \`${view.branch}\`; each task was reviewed before it was integrated, and ${view.goalTask.status === "done" ? "the goal was accepted in Quorum" : "the goal waits for its human's review in Quorum: this pull request is a draft until it is accepted"}.`,
    `**Spend:** ${spend}.`,
    "",
    `Flight ${view.number} in Quorum: ${hub}/board/${view.goalTask.number}`,
    // GitHub closes the issue when this merges into the default branch.
    ...(view.issueNumber ? ["", `Closes #${view.issueNumber}`] : []),
  ].join("\n");
}

/**
 * The next remote flight on a connected GitHub whose pull request is not opened yet and is due one: accepted, or
 * green when its human chose a draft. Whether the goal is accepted says whether the pull request is a draft.
 */
async function nextFlightToHandOff(db: Db): Promise<{ flight: Flight; accepted: boolean } | null> {
  const rows = await db
    .select({ flight: flights, goalStatus: tasks.status })
    .from(flights)
    .innerJoin(tasks, eq(tasks.id, flights.goalTaskId))
    .where(
      and(
        isNotNull(flights.remote),
        isNull(flights.pullRequestNumber),
        isNull(flights.mergedAt),
        isNull(flights.closedAt),
        or(eq(tasks.status, "done"), and(eq(flights.draftPullRequest, true), eq(flights.status, "green"))),
      ),
    )
    .orderBy(flights.number)
    .limit(20);
  for (const { flight, goalStatus } of rows) if (await githubOf(db, flight.remote!)) return { flight, accepted: goalStatus === "done" };
  return null;
}

/**
 * Opens the pull request of one accepted remote flight (or finds the one already open for its branch) and
 * records it with FlightPullRequestOpened; false when none waits. A forge that refuses throws ForgeRefused, with
 * its words and without the token: the step is tried again at the team's next turn.
 */
export async function openNextPullRequest(db: Db, actor: Principal, clock: Clock, hub = appUrl()): Promise<boolean> {
  const next = await nextFlightToHandOff(db);
  if (!next) return false;
  const { flight, accepted } = next;
  const forge = await githubOf(db, flight.remote!);
  if (!forge || !flight.branch || !flight.baseBranch) return false;
  const { github, where } = forge;
  const view = await readFlight(db, flight.id);
  let pull: { number: number; html_url: string };
  try {
    const [open] = (await github.rest.pulls.list({ ...where, head: `${where.owner}:${flight.branch}`, state: "open" })).data;
    pull =
      open ??
      (
        await github.rest.pulls.create({
          ...where,
          head: flight.branch,
          base: flight.baseBranch,
          title: `Flight ${flight.number}: ${flight.goal.split("\n")[0].slice(0, 200)}`,
          body: pullRequestBody(view, hub),
          draft: !accepted,
        })
      ).data;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ForgeRefused(flight, "open", forge.host, redactText(message, [{ label: "the forge token", value: forge.token }]));
  }
  await db.transaction(async (tx) => {
    const now = clock.now();
    await clearForgeRefusal(tx, actor, flight.id, now);
    const [recorded] = await tx
      .update(flights)
      .set({ pullRequestNumber: pull.number, pullRequestUrl: pull.html_url, updatedAt: now })
      .where(and(eq(flights.id, flight.id), isNull(flights.pullRequestNumber)))
      .returning({ id: flights.id });
    if (!recorded) return;
    await appendEvent(tx, {
      kind: "FlightPullRequestOpened",
      actor: actor.id,
      taskId: flight.goalTaskId,
      t: now,
      data: {
        ...{ flightId: flight.id, number: flight.number, pullRequest: pull.number, url: pull.html_url },
        ...{ remote: flight.remote!, branch: flight.branch!, base: flight.baseBranch!, draft: !accepted },
      },
    });
  });
  return true;
}

// A flight on a remote repository, flown whole: the team works in the hub's clone of a repository served by
// git's own http-backend behind a token, and each integration's branch reaches the remote; the user's remote
// main is untouched, and the forge's token is in no event the flight journalled. Once its human accepts the
// goal, the work comes back as a pull request, opened once, on a stand-in speaking GitHub's REST wire whose
// every request and answer is checked against GitHub's own OpenAPI description.
import { execFileSync } from "node:child_process";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { events } from "../../db/schema";
import { manualClock, systemClock } from "../../domain/clock";
import { openNextPullRequest } from "../../domain/flights/pull-request";
import { followPullRequests, PULL_REQUEST_CHECK_MS } from "../../domain/flights/pull-request-state";
import { readFlight } from "../../domain/flights/view";
import { addForgeHost } from "../../domain/forges/hosts";
import { reviewTask } from "../../domain/tasks/review";
import { fly, liveModel, stopModelServers, suiteOn } from "../../test/fixtures/flying";
import { startGitHttpServer, type GitHttpServer } from "../../test/fixtures/git-http-server";
import { startGitHubStandIn } from "../../test/fixtures/github-stand-in";
import { startWorker, until } from "../../test/fixtures/team";
import { acceptingReviewer, twoFailuresRepo } from "../../test/fixtures/repos";
import { makeHuman } from "../../test/helpers";
import { ensureTeam } from "./team";

type GitHubStandIn = Awaited<ReturnType<typeof startGitHubStandIn>>;

const TOKEN = "forge-token-team-3b7d1e";
let forge: GitHttpServer;
let github: GitHubStandIn;

beforeAll(async () => {
  forge = await startGitHttpServer(TOKEN);
  github = await startGitHubStandIn(TOKEN);
});
afterEach(stopModelServers);
afterAll(async () => {
  await forge.close();
  await github.stop();
});

it("flies a goal on a repository named by its URL, pushes the reviewed branch back, opens its pull request once accepted, and is merged when that is", {
  timeout: 180_000,
}, async () => {
  const fixture = twoFailuresRepo();
  const bare = `${forge.root}/team/two-failures.git`;
  execFileSync("git", ["clone", "--quiet", "--bare", fixture.repo, bare]);
  const main = execFileSync("git", ["-C", bare, "rev-parse", "main"], { encoding: "utf8" }).trim();
  await addForgeHost(getDb(), await makeHuman(), { host: forge.host, apiUrl: github.apiUrl, token: TOKEN }, systemClock);

  const model = await liveModel({ orchestrator: fixture.orchestrator, coder: fixture.coder, reviewer: acceptingReviewer }, "openai");
  const { flight, goalTask, human } = await fly(`${forge.origin}/team/two-failures.git`, fixture.goal, model);
  expect(flight.status).toBe("green");

  // Every integration reached the remote, none refused; its branch there passes the suite, its main is as it was.
  const published = await getDb()
    .select({ refused: sql<string | null>`${events.data}->>'refused'` })
    .from(events)
    .where(and(eq(events.kind, "FlightBranchPublished"), sql`${events.data}->>'flightId' = ${flight.id}`));
  expect(published.length).toBeGreaterThanOrEqual(2);
  expect(published.every((p) => p.refused === null)).toBe(true);
  expect(suiteOn(bare, flight.branch!, ["node", "--test"])).toBe(true);
  expect(execFileSync("git", ["-C", bare, "rev-parse", "main"], { encoding: "utf8" }).trim()).toBe(main);

  // No pull request before the human accepts; then one, from the flight's branch into main, said in words.
  const team = await ensureTeam(getDb(), systemClock, 2);
  expect(await openNextPullRequest(getDb(), team.orchestrator.principal, systemClock, "http://quorum.test")).toBe(false);
  await reviewTask(getDb(), human, goalTask.id, { verdict: "accept" }, systemClock);
  // The orchestrator's turn opens it (the worker's step), with the hub's address as QUORUM_URL gives it.
  const worker = startWorker({ model, coders: 2 });
  try {
    await until("the pull request", async () => (await readFlight(getDb(), flight.id)).pullRequest, 60_000);
  } finally {
    await worker.stop();
  }
  const created = (await github.requests()).filter((r) => r.method === "POST" && r.path === "/api/v3/repos/team/two-failures/pulls");
  expect(created).toHaveLength(1);
  expect(created[0].body).toMatchObject({ head: flight.branch, base: "main", title: `Flight ${flight.number}: ${fixture.goal.split("\n")[0]}` });
  const body = String((created[0].body as { body: string }).body);
  expect(body).toContain(fixture.goal);
  expect(body).toContain(`/board/${goalTask.number}`);
  expect(body).toMatch(/### Tasks \(2\)/);
  const view = await readFlight(getDb(), flight.id);
  expect(view.pullRequest).toEqual({ number: 1, url: expect.stringMatching(/\/team\/two-failures\/pull\/1$/) });
  // Opened once: the next turn finds nothing to do, and nothing the hub sent broke GitHub's description.
  expect(await openNextPullRequest(getDb(), team.orchestrator.principal, systemClock, "http://quorum.test")).toBe(false);

  // Merged on the forge: the team's next look ends the flight as merged, said in the journal.
  const later = manualClock(new Date(Date.now() + 2 * PULL_REQUEST_CHECK_MS));
  expect(await followPullRequests(getDb(), team.orchestrator.principal, later)).toBe(false);
  await github.merge("team", "two-failures", 1);
  later.advance(PULL_REQUEST_CHECK_MS);
  expect(await followPullRequests(getDb(), team.orchestrator.principal, later)).toBe(true);
  const merged = await readFlight(getDb(), flight.id);
  expect(merged.stage).toBe("merged");
  expect(merged.merged).toMatchObject({ into: "main", commit: expect.stringMatching(/^[0-9a-f]{40}$/) });
  const [seen] = await getDb()
    .select()
    .from(events)
    .where(and(eq(events.kind, "FlightPullRequestMerged"), eq(events.taskId, goalTask.id)));
  expect(seen.data).toMatchObject({ number: flight.number, pullRequest: 1 });
  expect(await github.violations()).toEqual([]);

  const [{ n }] = await getDb().execute<{ n: number }>(sql`select count(*)::int as n from events where data::text like ${`%${TOKEN}%`}`);
  expect(n).toBe(0);
});

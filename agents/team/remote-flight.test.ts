// A flight on a remote repository, flown whole: the team works in the hub's clone of a repository served by
// git's own http-backend behind a token, and each integration's branch reaches the remote; the user's remote
// main is untouched, and the forge's token is in no event the flight journalled. Once its human accepts the
// goal, the work comes back as a pull request, opened once, on a stand-in speaking GitHub's REST wire whose
// every request and answer is checked against GitHub's own OpenAPI description. A review asking changes with two
// line comments, then a failed check, come back through the hub's webhook (signed, a replay refused) as rework the
// coder's model reads by file and line; each fix is pushed to the same branch, updating the same pull request.
import { Octokit } from "@octokit/rest";
import { execFileSync } from "node:child_process";
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { events, flights, forgeHosts, tasks } from "../../db/schema";
import { manualClock, systemClock } from "../../domain/clock";
import { readyNextDraft } from "../../domain/flights/draft-pull-request";
import { launchFlight } from "../../domain/flights/launch";
import { openNextPullRequest } from "../../domain/flights/pull-request";
import { followPullRequests, PULL_REQUEST_CHECK_MS } from "../../domain/flights/pull-request-state";
import { readFlight } from "../../domain/flights/view";
import { addForgeHost, replaceForgeToken } from "../../domain/forges/hosts";
import { ForgeRefused, recordForgeRefusal } from "../../domain/flights/forge-refusal";
import { listWaiting } from "../../domain/desk/waiting";
import { generateWebhookSecret } from "../../domain/forges/settings";
import { startHubServer, type HubServer } from "../../test/fixtures/hub-server";
import { reviewTask } from "../../domain/tasks/review";
import { fly, lastModelServer, liveModel, stopModelServers, suiteOn } from "../../test/fixtures/flying";
import { startGitHttpServer, type GitHttpServer } from "../../test/fixtures/git-http-server";
import { startGitHubStandIn } from "../../test/fixtures/github-stand-in";
import { flightTaskIds, startWorker, until } from "../../test/fixtures/team";
import { acceptingReviewer, cases, coderRun, twoFailuresRepo } from "../../test/fixtures/repos";
import { makeHuman } from "../../test/helpers";
import { ensureTeam } from "./team";

type GitHubStandIn = Awaited<ReturnType<typeof startGitHubStandIn>>;

const TOKEN = "forge-token-team-3b7d1e";
let forge: GitHttpServer;
let github: GitHubStandIn;
let hub: HubServer;
const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-C", cwd, ...args], { encoding: "utf8" }).trim();

beforeAll(async () => {
  forge = await startGitHttpServer(TOKEN);
  github = await startGitHubStandIn(TOKEN);
  hub = await startHubServer();
});
afterEach(stopModelServers);
afterAll(async () => {
  await forge.close();
  await github.stop();
  await hub.close();
});

it("flies a goal on a repository named by its URL, pushes the reviewed branch back, opens its pull request once accepted, and is merged when that is", {
  timeout: 420_000,
}, async () => {
  const fixture = twoFailuresRepo();
  const bare = `${forge.root}/team/two-failures.git`;
  execFileSync("git", ["clone", "--quiet", "--bare", fixture.repo, bare]);
  const main = execFileSync("git", ["-C", bare, "rev-parse", "main"], { encoding: "utf8" }).trim();
  await addForgeHost(getDb(), await makeHuman(), { host: forge.host, apiUrl: github.apiUrl, token: TOKEN }, systemClock);

  const coder = cases(
    { when: "Changes asked for on pull request", runs: [coderRun("src/clamp.js", "  return Math.min(high, Math.max(low, n));", "  return Math.max(low, Math.min(high, n));")] },
    {
      when: 'Check "ci/test" failed',
      runs: [coderRun("src/slug.js", '  return text.toLowerCase().replace(/\\s+/g, "-");', '  return text.trim().toLowerCase().replace(/\\s+/g, "-");')],
    },
    ...(fixture.coder as ReturnType<typeof cases>),
  );
  const model = await liveModel({ orchestrator: fixture.orchestrator, coder, reviewer: acceptingReviewer }, "openai");
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
  expect(view.pullRequest).toMatchObject({ number: 1, url: expect.stringMatching(/\/team\/two-failures\/pull\/1$/), draft: false });
  // Opened once: the next turn finds nothing to do, and nothing the hub sent broke GitHub's description.
  expect(await openNextPullRequest(getDb(), team.orchestrator.principal, systemClock, "http://quorum.test")).toBe(false);

  // The forge's webhook reaches the hub, signed with the secret Settings generated.
  const [connected] = await getDb().select({ id: forgeHosts.id }).from(forgeHosts).where(eq(forgeHosts.host, forge.host));
  const { secret, webhookUrl } = await generateWebhookSecret(getDb(), human, connected.id, systemClock);
  await github.addHook({ url: `${hub.origin}${new URL(webhookUrl).pathname}`, secret });
  const pushedBefore = git(bare, "rev-parse", flight.branch!);

  // A review asks for changes on two lines: delivered, it has the team read the pull request at once and file the rework.
  const review = await github.addReview("team", "two-failures", 1, {
    user: "ada",
    state: "CHANGES_REQUESTED",
    body: "One change to clamp, see the line.",
    comments: [
      { path: "src/clamp.js", line: 2, body: "Clamp to high last: Math.max(low, Math.min(high, n))." },
      { path: "src/slug.js", line: 2, body: "Fine as it is; no change here." },
    ],
  });
  expect(review.deliveries).toEqual([expect.objectContaining({ event: "pull_request_review", status: 202 })]);
  // The same delivery again is a replay; a delivery not signed with the secret is refused; neither files anything.
  expect(await github.redeliver(review.deliveries[0].id)).toBe(409);
  const forged = await fetch(`${hub.origin}${new URL(webhookUrl).pathname}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-github-event": "pull_request_review", "x-github-delivery": "forged-1", "x-hub-signature-256": `sha256=${"0".repeat(64)}` },
    body: JSON.stringify({ action: "submitted", repository: { full_name: "team/two-failures" }, pull_request: { number: 1 } }),
  });
  expect(forged.status).toBe(401);

  const reworked = startWorker({ model, coders: 2 });
  try {
    const prTask = (title: string) => async () => {
      const [row] = await getDb()
        .select({ status: tasks.status })
        .from(tasks)
        .where(and(eq(tasks.title, title), inArray(tasks.id, await flightTaskIds(flight.id))));
      const [now] = await getDb().select({ status: flights.status }).from(flights).where(eq(flights.id, flight.id));
      return row?.status === "done" && now.status === "green" && git(bare, "rev-parse", flight.branch!) !== pushedBefore;
    };
    await until("the review's changes integrated and pushed", prTask("Changes asked for on pull request #1 by @ada"), 120_000);
    expect(git(bare, "show", `${flight.branch}:src/clamp.js`)).toContain("Math.max(low, Math.min(high, n))");

    // A check fails on the pull request, with an annotation and a log: the same way back.
    const check = await github.addCheckRun({
      owner: "team",
      repo: "two-failures",
      ref: flight.branch!,
      name: "ci/test",
      conclusion: "failure",
      title: "1 test failed",
      summary: "slug trims its input: failed",
      text: "TAP version 13\nnot ok 3 - slug trims its input\n  expected: 'a-b'\n  actual: ' a-b '",
      annotations: [{ path: "src/slug.js", start_line: 2, end_line: 2, annotation_level: "failure", message: "slug keeps surrounding spaces" }],
    });
    expect(check.deliveries).toEqual([expect.objectContaining({ event: "check_run", status: 202 })]);
    await until(
      "the check's fix integrated and pushed",
      async () => (await prTask('Check "ci/test" failed on pull request #1')()) && git(bare, "show", `${flight.branch}:src/slug.js`).includes("trim()"),
      120_000,
    );
  } finally {
    await reworked.stop();
  }
  // Each came back once, as a task whose coder's model read it by file and line, and the same pull request was updated.
  const feedback = await getDb()
    .select()
    .from(events)
    .where(and(eq(events.kind, "FlightPullRequestFeedback"), eq(events.taskId, goalTask.id)))
    .orderBy(events.id);
  expect(feedback.map((e) => e.data)).toEqual([
    expect.objectContaining({ feedback: "review", from: "@ada", lines: 2, pullRequest: 1 }),
    expect.objectContaining({ feedback: "check", from: "ci/test", lines: 1, pullRequest: 1 }),
  ]);
  const coderTasks = (await lastModelServer().requests()).filter((r) => r.role === "coder");
  const asked = coderTasks.find((r) => r.task.includes("Changes asked for on pull request"))!.task;
  expect(asked).toContain("src/clamp.js:2: Clamp to high last");
  expect(asked).toContain("src/slug.js:2: Fine as it is");
  const failed = coderTasks.find((r) => r.task.includes('Check "ci/test" failed'))!.task;
  expect(failed).toContain("src/slug.js:2: failure: slug keeps surrounding spaces");
  expect(failed).toContain("not ok 3 - slug trims its input");
  expect((await github.requests()).filter((r) => r.method === "POST" && r.path === "/api/v3/repos/team/two-failures/pulls")).toHaveLength(1);
  expect(suiteOn(bare, flight.branch!, ["node", "--test"])).toBe(true);

  // Merged on the forge: the team's next look ends the flight as merged, said in the journal.
  const later = manualClock(new Date(Date.now() + 2 * PULL_REQUEST_CHECK_MS));
  expect(await followPullRequests(getDb(), team.orchestrator.principal, team.reviewer.principal.id, later)).toEqual([]);
  await github.merge("team", "two-failures", 1);
  later.advance(PULL_REQUEST_CHECK_MS);
  expect(await followPullRequests(getDb(), team.orchestrator.principal, team.reviewer.principal.id, later)).toEqual([
    { flightNumber: flight.number, pullRequest: 1, ended: "merged", filed: [] },
  ]);
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

it("opens a draft pull request as soon as the flight is green when its human chose one, and marks it ready once the goal is accepted", { timeout: 180_000 }, async () => {
  const fixture = twoFailuresRepo();
  const bare = `${forge.root}/team/drafts.git`;
  execFileSync("git", ["clone", "--quiet", "--bare", fixture.repo, bare]);
  const url = `${forge.origin}/team/drafts.git`;
  // A draft is a forge's: a flight on a folder is refused one, saying why.
  const folder = await launchFlight(getDb(), await makeHuman(), { repo: fixture.repo, goal: fixture.goal, mode: "scripted", draftPullRequest: true }, systemClock).catch(
    (e: unknown) => e,
  );
  expect(folder).toMatchObject({ status: 400, message: expect.stringMatching(/a draft pull request needs a repository on a forge/) });

  const model = await liveModel({ orchestrator: fixture.orchestrator, coder: fixture.coder, reviewer: acceptingReviewer }, "openai");
  const { flight, goalTask, human } = await fly(url, fixture.goal, model, { draftPullRequest: true });
  expect(flight.status).toBe("green");
  const team = await ensureTeam(getDb(), systemClock, 2);
  const orchestrator = team.orchestrator.principal;
  // Green, the goal still waiting for its human: the pull request is opened, as a draft that says so.
  await openNextPullRequest(getDb(), orchestrator, systemClock, "http://quorum.test");
  const opened = (await github.requests()).filter((r) => r.method === "POST" && r.path === "/api/v3/repos/team/drafts/pulls");
  expect(opened).toHaveLength(1);
  expect(opened[0].body).toMatchObject({ draft: true, head: flight.branch });
  expect(String((opened[0].body as { body: string }).body)).toContain("this pull request is a draft until it is accepted");
  const octokit = new Octokit({ auth: TOKEN, baseUrl: github.apiUrl });
  const pull = async () => (await octokit.rest.pulls.get({ owner: "team", repo: "drafts", pull_number: 1 })).data;
  expect((await pull()).draft).toBe(true);
  expect(await readyNextDraft(getDb(), orchestrator, systemClock, "http://quorum.test")).toBe(false);

  // Accepted, while the forge refuses the hub's token: the flight's human is told, once, in the forge's words.
  await reviewTask(getDb(), human, goalTask.id, { verdict: "accept" }, systemClock);
  const [connected] = await getDb().select({ id: forgeHosts.id }).from(forgeHosts).where(eq(forgeHosts.host, forge.host));
  await replaceForgeToken(getDb(), human, connected.id, { token: "a-token-the-forge-refuses" }, systemClock);
  for (let turn = 0; turn < 2; turn++) {
    const refused = await readyNextDraft(getDb(), orchestrator, systemClock, "http://quorum.test").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ForgeRefused);
    await recordForgeRefusal(getDb(), orchestrator, refused as ForgeRefused, systemClock);
  }
  const waiting = await listWaiting(getDb(), human);
  const told = waiting.items.filter((i) => i.kind === "forge");
  expect(told).toEqual([
    expect.objectContaining({
      flightNumber: flight.number,
      goalNumber: goalTask.number,
      reason: expect.stringMatching(/refused to mark its draft pull request ready for flight \d+: Bad credentials/),
    }),
  ]);
  expect(JSON.stringify(waiting)).not.toContain("a-token-the-forge-refuses");
  expect((await readFlight(getDb(), flight.id)).forgeRefusal).toMatchObject({ reason: told[0].kind === "forge" ? told[0].reason : "" });
  const refusals = () =>
    getDb()
      .select()
      .from(events)
      .where(and(inArray(events.kind, ["FlightForgeRefused", "FlightForgeAnswered"]), eq(events.taskId, goalTask.id)))
      .orderBy(events.id);
  expect((await refusals()).map((e) => e.kind)).toEqual(["FlightForgeRefused"]);

  // The token put right: ready for review, its body now saying the goal was accepted; once; and the refusal is over.
  await replaceForgeToken(getDb(), human, connected.id, { token: TOKEN }, systemClock);
  expect(await readyNextDraft(getDb(), orchestrator, systemClock, "http://quorum.test")).toBe(true);
  expect((await listWaiting(getDb(), human)).items.filter((i) => i.kind === "forge")).toEqual([]);
  expect((await refusals()).map((e) => e.kind)).toEqual(["FlightForgeRefused", "FlightForgeAnswered"]);
  expect(await readyNextDraft(getDb(), orchestrator, systemClock, "http://quorum.test")).toBe(false);
  expect(await pull()).toMatchObject({ draft: false, body: expect.stringContaining("the goal was accepted in Quorum") });
  expect((await github.requests()).filter((r) => r.path === "/api/graphql")).toEqual([expect.objectContaining({ status: 200 })]);
  const ready = await getDb()
    .select()
    .from(events)
    .where(and(eq(events.kind, "FlightPullRequestReady"), eq(events.taskId, goalTask.id)));
  expect(ready.map((e) => e.data)).toEqual([{ flightId: flight.id, number: flight.number, pullRequest: 1, url: expect.stringMatching(/\/team\/drafts\/pull\/1$/) }]);
  expect(await github.violations()).toEqual([]);
});

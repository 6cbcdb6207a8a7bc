// Issue intake (the forge issue, part 4): an issue carrying its forge's intake label becomes one flight proposal however
// often it arrives, and nothing else does; a human starts it — a flight on the issue's repository with the goal as they
// edited it, remembering the issue — or dismisses it, and nobody else may. Polling asks a stand-in speaking GitHub's
// REST wire (checked against GitHub's description) for each flown repository's labelled issues, at most once a minute.
import { pullRequestBody } from "./pull-request";
import { readFlight } from "./view";
import { execFileSync } from "node:child_process";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { events, flightProposals, flights, forgeHosts } from "../../db/schema";
import { apiRoute } from "../../test/api";
import { startGitHttpServer, type GitHttpServer } from "../../test/fixtures/git-http-server";
import { type GitHubStandIn, startGitHubStandIn } from "../../test/fixtures/github-stand-in";
import { twoFailuresRepo } from "../../test/fixtures/repos";
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { manualClock, systemClock } from "../clock";
import { listWaiting } from "../desk/waiting";
import { addForgeHost, replaceForgeToken } from "../forges/hosts";
import { changeForgeSettings } from "../forges/settings";
import { SYSTEM_PRINCIPAL_NAME } from "../principal";
import { announceTeamStarted, ensureTeamMember } from "./team-members";
import { ISSUE_CHECK_MS, pollIssueIntake, proposeFromIssue } from "./proposals";

const start = apiRoute("/api/flight-proposals/[id]/start");
const dismiss = apiRoute("/api/flight-proposals/[id]/dismiss");

const TOKEN = "forge-token-intake-5c2e9a";
let git: GitHttpServer;
let github: GitHubStandIn;
/** The repository on the forge: `team/app`, served by git's http-backend and named the same on the GitHub stand-in. */
let remote: string;

beforeAll(async () => {
  [git, github] = await Promise.all([startGitHttpServer(TOKEN), startGitHubStandIn(TOKEN)]);
  execFileSync("git", ["clone", "--quiet", "--bare", twoFailuresRepo().repo, `${git.root}/team/app.git`]);
  remote = `${git.origin}/team/app.git`;
  const human = await makeHuman();
  const forge = await addForgeHost(getDb(), human, { host: git.host, apiUrl: github.apiUrl, token: TOKEN }, systemClock);
  await changeForgeSettings(getDb(), human, forge.id, { intakeLabel: "quorum" }, systemClock);
});
afterAll(async () => {
  await github?.stop();
  await git?.close();
});

const issue = (number: number, labels = ["quorum"], extra: Record<string, unknown> = {}) => ({
  number,
  title: `Dates are off by one (#${number})`,
  body: "The calendar shows yesterday.\n\nExpected: today.",
  html_url: `${git.origin}/team/app/issues/${number}`,
  labels,
  ...extra,
});

async function proposalOf(issueNumber: number) {
  return getDb().select().from(flightProposals).where(eq(flightProposals.issueNumber, issueNumber));
}

describe("proposing from an issue", () => {
  it("proposes a labelled issue once, however often it is delivered and however its repository's URL is spelled", async () => {
    expect(await proposeFromIssue(getDb(), { host: git.host, remote, issue: issue(101) }, systemClock)).toBe(true);
    expect(await proposeFromIssue(getDb(), { host: git.host, remote, issue: issue(101) }, systemClock)).toBe(false);
    expect(await proposeFromIssue(getDb(), { host: git.host.toUpperCase(), remote: `${git.origin}/Team/App`, issue: issue(101) }, systemClock)).toBe(false);
    const [row, ...more] = await proposalOf(101);
    expect(more).toEqual([]);
    expect(row).toMatchObject({ host: git.host, remote, state: "waiting", title: "Dates are off by one (#101)", issueUrl: `${git.origin}/team/app/issues/101` });
    const proposed = await getDb()
      .select({ data: events.data, actor: sql<string>`(select name from principals where id = ${events.actor})` })
      .from(events)
      .where(and(eq(events.kind, "FlightProposed"), sql`${events.data}->>'proposalId' = ${row.id}`));
    expect(proposed).toEqual([{ actor: SYSTEM_PRINCIPAL_NAME, data: { proposalId: row.id, remote, issue: 101, url: row.issueUrl, title: row.title } }]);
    // A label's case does not matter on GitHub, nor here.
    expect(await proposeFromIssue(getDb(), { host: git.host, remote, issue: issue(102, ["bug", "Quorum"]) }, systemClock)).toBe(true);
  });

  it("proposes nothing for an issue without the label, a pull request, another host's repository or a host without intake", async () => {
    const human = await makeHuman();
    await addForgeHost(getDb(), human, { host: "git.no-intake.test", token: "ghp_no_intake_1234" }, systemClock);
    const cases = [
      { host: git.host, remote, issue: issue(201, ["bug"]) },
      { host: git.host, remote, issue: issue(202, ["quorum"], { pull_request: { url: `${git.origin}/team/app/pull/202` } }) },
      { host: git.host, remote: "https://elsewhere.test/team/app.git", issue: issue(203) },
      { host: "git.no-intake.test", remote: "https://git.no-intake.test/team/app.git", issue: issue(204) },
      { host: "git.unknown.test", remote: "https://git.unknown.test/team/app.git", issue: issue(205) },
      { host: git.host, remote: "not a url", issue: issue(206) },
    ];
    for (const delivered of cases) expect(await proposeFromIssue(getDb(), delivered, systemClock), JSON.stringify(delivered)).toBe(false);
    const [{ count }] = await getDb().execute<{ count: number }>(sql`select count(*)::int as count from flight_proposals where issue_number between 201 and 206`);
    expect(count).toBe(0);
  });

  it("waits for every human, with the issue's words as the goal, and for no agent", async () => {
    const human = await makeHuman();
    const agent = await makeAgent();
    const [row] = await proposalOf(101);
    const items = (await listWaiting(getDb(), human)).items.filter((item) => item.kind === "proposal");
    expect(items).toContainEqual(
      expect.objectContaining({
        kind: "proposal",
        key: `proposal:${row.id}`,
        proposalId: row.id,
        repository: "team/app",
        issueNumber: 101,
        title: row.title,
        goal: "Dates are off by one (#101)\n\nThe calendar shows yesterday.\n\nExpected: today.",
      }),
    );
    expect((await listWaiting(getDb(), human)).byPage["/board"]).toBeGreaterThanOrEqual(2);
    expect((await listWaiting(getDb(), agent)).items.filter((item) => item.kind === "proposal")).toEqual([]);
  });
});

describe("deciding a proposal", () => {
  it("starts a flight on the issue's repository with the edited goal, remembering the issue, and refuses what it must", async () => {
    const [proposal] = await proposalOf(101);
    const human = await makeHuman();
    const agent = await makeAgent();
    const goal = "Show today's date in the calendar, not yesterday's.";
    const startAs = (who: { cookie?: string; key?: string }, body: unknown, id = proposal.id) => call(start.POST, "/x", { ...who, params: { id }, body });

    expect((await startAs({ key: agent.key }, { goal })).status).toBe(403);
    const blank = await startAs({ cookie: human.cookie }, { goal: "  " });
    expect(blank.status).toBe(400);
    expect(blank.body.issues).toEqual([expect.objectContaining({ path: ["goal"] })]);
    expect((await startAs({ cookie: human.cookie }, { goal, repo: "/tmp" })).status).toBe(400);
    expect((await startAs({ cookie: human.cookie }, { goal }, "00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await startAs({ cookie: human.cookie }, { goal }, "not-a-proposal")).status).toBe(404);
    // No team to fly it yet: refused as New flight would be, and the proposal still waits.
    const noTeam = await startAs({ cookie: human.cookie }, { goal });
    expect(noTeam.status).toBe(409);
    expect(noTeam.body.error).toBe("no_team");
    expect((await proposalOf(101))[0].state).toBe("waiting");

    await ensureTeamMember(getDb(), "orchestrator", "orchestrator", 1000, systemClock);
    await announceTeamStarted(getDb(), ["orchestrator", "coder", "reviewer", "tester"], "openai-compatible:stand-in", systemClock);
    const started = await startAs({ cookie: human.cookie }, { goal });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ goal, remote, stage: "planning", createdByName: human.name });
    const [flight] = await getDb().select().from(flights).where(eq(flights.id, started.body.id));
    expect(flight).toMatchObject({ remote, issueNumber: 101, goal });
    // Its pull request, once opened, closes the issue when merged (GitHub reads the keyword in its body).
    const view = await readFlight(getDb(), flight.id);
    expect(view.issueNumber).toBe(101);
    expect(pullRequestBody(view, "http://quorum.test")).toMatch(/\n\nCloses #101$/);
    const [after] = await proposalOf(101);
    expect(after).toMatchObject({ state: "started", flightId: flight.id, decidedBy: human.id });
    const [journalled] = await getDb()
      .select()
      .from(events)
      .where(and(eq(events.kind, "FlightProposalStarted"), sql`${events.data}->>'proposalId' = ${proposal.id}`));
    expect(journalled).toMatchObject({ actor: human.id, taskId: flight.goalTaskId, data: { flightId: flight.id, number: flight.number, issue: 101, remote } });

    // Decided: a second start, or a dismissal, is 409 and launches nothing.
    const again = await startAs({ cookie: human.cookie }, { goal });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: "proposal_decided", state: "started" });
    expect((await call(dismiss.POST, "/x", { cookie: human.cookie, params: { id: proposal.id }, body: {} })).status).toBe(409);
    const [{ count }] = await getDb().execute<{ count: number }>(sql`select count(*)::int as count from flights where issue_number = 101`);
    expect(count).toBe(1);
    expect((await listWaiting(getDb(), human)).items.some((item) => item.key === `proposal:${proposal.id}`)).toBe(false);
  });

  it("dismisses a proposal for good: it leaves what waits, and its issue is not proposed again", async () => {
    const [proposal] = await proposalOf(102);
    const human = await makeHuman();
    const agent = await makeAgent();
    expect((await call(dismiss.POST, "/x", { key: agent.key, params: { id: proposal.id }, body: {} })).status).toBe(403);
    const dismissed = await call(dismiss.POST, "/x", { cookie: human.cookie, params: { id: proposal.id }, body: {} });
    expect(dismissed.status).toBe(200);
    expect(dismissed.body).toMatchObject({ id: proposal.id, state: "dismissed", issueNumber: 102, repository: "team/app" });
    const [journalled] = await getDb()
      .select()
      .from(events)
      .where(and(eq(events.kind, "FlightProposalDismissed"), sql`${events.data}->>'proposalId' = ${proposal.id}`));
    expect(journalled.actor).toBe(human.id);
    expect((await listWaiting(getDb(), human)).items.some((item) => item.key === `proposal:${proposal.id}`)).toBe(false);
    expect(await proposeFromIssue(getDb(), { host: git.host, remote, issue: issue(102) }, systemClock)).toBe(false);
  });
});

describe("polling a forge for labelled issues", () => {
  const listed = async () => (await github.requests()).filter((r) => r.operationId === "issues/list-for-repo");

  it("asks each flown repository for its open labelled issues at most once a minute, and proposes the issues, not the pull requests", async () => {
    const clock = manualClock(new Date(Date.now() + 10 * ISSUE_CHECK_MS));
    const labelled = await github.addIssue({ owner: "team", repo: "app", title: "Clamp negative numbers", body: "clamp(-1, 0, 3) should be 0", labels: ["quorum"] });
    const unlabelled = await github.addIssue({ owner: "team", repo: "app", title: "Just a thought", labels: ["question"] });
    expect(await pollIssueIntake(getDb(), clock)).toBe(true);
    const asked = await listed();
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ path: "/api/v3/repos/team/app/issues", query: expect.objectContaining({ labels: "quorum", state: "open" }), status: 200 });
    const [proposal] = await proposalOf(labelled.number);
    expect(proposal).toMatchObject({ remote, title: "Clamp negative numbers", body: "clamp(-1, 0, 3) should be 0", state: "waiting" });
    expect(await proposalOf(unlabelled.number)).toEqual([]);

    // Within the minute the forge is not asked again; after it, a new labelled issue is found.
    const later = await github.addIssue({ owner: "team", repo: "app", title: "Slugs keep accents", labels: ["quorum"] });
    clock.advance(ISSUE_CHECK_MS - 1_000);
    expect(await pollIssueIntake(getDb(), clock)).toBe(false);
    expect(await listed()).toHaveLength(1);
    clock.advance(1_000);
    expect(await pollIssueIntake(getDb(), clock)).toBe(true);
    expect(await proposalOf(later.number)).toHaveLength(1);
    // Found again, each is still proposed once.
    clock.advance(ISSUE_CHECK_MS);
    expect(await pollIssueIntake(getDb(), clock)).toBe(false);
    expect(await github.violations()).toEqual([]);
  });

  it("asks nothing of a forge whose polling is off, and a forge that refuses is said without its token", async () => {
    const human = await makeHuman();
    const [forge] = await getDb().select().from(forgeHosts).where(eq(forgeHosts.host, git.host));
    const clock = manualClock(new Date(Date.now() + 100 * ISSUE_CHECK_MS));
    const before = (await listed()).length;
    await changeForgeSettings(getDb(), human, forge.id, { pollPullRequests: false }, systemClock);
    expect(await pollIssueIntake(getDb(), clock)).toBe(false);
    expect(await listed()).toHaveLength(before);

    await changeForgeSettings(getDb(), human, forge.id, { pollPullRequests: true }, systemClock);
    const wrong = "forge-token-wrong-77f1c0";
    await replaceForgeToken(getDb(), human, forge.id, { token: wrong }, systemClock);
    try {
      const refused = await pollIssueIntake(getDb(), clock).then(
        () => null,
        (error: Error) => error.message,
      );
      expect(refused).toMatch(new RegExp(`^${git.host.replace(/\./g, "\\.")} refused the issues of team/app: `));
      expect(refused).not.toContain(wrong);
    } finally {
      await replaceForgeToken(getDb(), human, forge.id, { token: TOKEN }, systemClock);
    }
  });
});

// Flights over HTTP: a human starts one on a repository of theirs; the refusals say why and change nothing.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
const detailRoute = apiHandler("GET", "/api/flights/[id]");
const inspectRoute = apiHandler("GET", "/api/flights/inspect");
const listRoute = apiHandler("GET", "/api/flights");
const startRoute = apiHandler("POST", "/api/flights");
import { getDb } from "../../db/client";
import { checkoutState, twoFailuresRepo } from "../../test/fixtures/repos";
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { systemClock } from "../clock";
import { announceTeamStarted, ensureTeamMember } from "./team-members";
import { DEFAULT_FLIGHT_ALLOWANCE } from "../budgets/flight-budget";
import { apiHandler } from "../../test/api";

const scratch = () => twoFailuresRepo().repo;

async function liveTeam(mode = "openai-compatible:stand-in") {
  await ensureTeamMember(getDb(), "orchestrator", "orchestrator", 1000, systemClock);
  await announceTeamStarted(getDb(), ["orchestrator", "coder", "reviewer", "tester"], mode, systemClock);
}

async function flightCount(cookie: string): Promise<number> {
  return ((await call(listRoute, "/api/flights", { cookie })).body as { items: unknown[] }).items.length;
}

describe("POST /api/flights", () => {
  it("starts a flight on the human's repository: its branch, its base commit, the detected test command, the allowance; the checkout untouched", async () => {
    const human = await makeHuman();
    await liveTeam();
    const repo = scratch();
    const before = checkoutState(repo);
    const res = await call(startRoute, "/api/flights", { cookie: human.cookie, body: { repo, goal: "Make parse('') return []" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      goal: "Make parse('') return []",
      status: "planning",
      mode: "openai-compatible:stand-in",
      source: repo,
      branch: `quorum/flight-${res.body.number}`,
      baseCommit: before.head,
      testCommand: "npm test",
      goalTask: { status: "ready" },
      tasks: [],
      budget: { allowance: DEFAULT_FLIGHT_ALLOWANCE, spent: 0 },
      createdByName: human.name,
    });
    expect(checkoutState(repo)).toEqual(before);
    // By id and by number, for everyone.
    const agent = await makeAgent();
    expect((await call(detailRoute, `/api/flights/${res.body.id}`, { key: agent.key, params: { id: res.body.id } })).body.id).toBe(res.body.id);
    expect((await call(detailRoute, `/api/flights/${res.body.number}`, { cookie: human.cookie, params: { id: String(res.body.number) } })).body.id).toBe(res.body.id);
    expect((await call(detailRoute, "/api/flights/999999", { cookie: human.cookie, params: { id: "999999" } })).status).toBe(404);
    expect((await call(detailRoute, "/api/flights/x", { cookie: human.cookie, params: { id: "x" } })).status).toBe(404);
  });

  it("takes the test command and allowance given", async () => {
    const human = await makeHuman();
    await liveTeam();
    const res = await call(startRoute, "/api/flights", { cookie: human.cookie, body: { repo: scratch(), goal: "g", testCommand: "node --test test/", allowance: 50_000 } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ testCommand: "node --test test/", budget: { allowance: 50_000 } });
  });

  it("refuses, saying why and starting nothing: no git repository, no commit, no test command found, an agent, a scripted team", async () => {
    const human = await makeHuman();
    await liveTeam();
    const start = (body: unknown, who: { cookie?: string; key?: string } = { cookie: human.cookie }) => call(startRoute, "/api/flights", { ...who, body });
    const count = await flightCount(human.cookie);

    const plain = mkdtempSync(join(tmpdir(), "quorum-plain-"));
    expect(await start({ repo: plain, goal: "g" })).toMatchObject({ status: 400, body: { error: "invalid", message: expect.stringMatching(/not a git repository/) } });
    const empty = mkdtempSync(join(tmpdir(), "quorum-empty-"));
    execFileSync("git", ["init", "-q"], { cwd: empty });
    expect(await start({ repo: empty, goal: "g" })).toMatchObject({ status: 400, body: { message: expect.stringMatching(/has no commit yet/) } });
    const untestable = mkdtempSync(join(tmpdir(), "quorum-notests-"));
    execFileSync("git", ["init", "-q"], { cwd: untestable });
    writeFileSync(join(untestable, "README.md"), "words");
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "x", "--allow-empty"], { cwd: untestable });
    expect(await start({ repo: untestable, goal: "g" })).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/give a test command/), issues: [{ path: ["testCommand"] }] },
    });
    expect(await start({ repo: "relative/dir", goal: "g" })).toMatchObject({ status: 400 });
    expect(await start({ goal: "g" })).toMatchObject({ status: 400, body: { issues: expect.any(Array) } });
    expect(await start({ repo: scratch(), goal: "g", allowance: -5 })).toMatchObject({ status: 400 });
    const agent = await makeAgent();
    expect(await start({ repo: scratch(), goal: "g" }, { key: agent.key })).toMatchObject({ status: 403 });
    await liveTeam("scripted");
    expect(await start({ repo: scratch(), goal: "g" })).toMatchObject({ status: 409, body: { error: "scripted_team", message: expect.stringMatching(/QUORUM_MODEL/) } });
    expect(await flightCount(human.cookie)).toBe(count);
  });
});

describe("GET /api/flights/inspect", () => {
  const inspect = (repo: string, who: { cookie?: string; key?: string }) => call(inspectRoute, `/api/flights/inspect?repo=${encodeURIComponent(repo)}`, who);

  it("tells the New flight dialog what a flight would start from: the top folder, HEAD, branch and detected test command; the checkout untouched", async () => {
    const human = await makeHuman();
    const repo = scratch();
    const before = checkoutState(repo);
    expect(await inspect(`${repo}/src`, { cookie: human.cookie })).toMatchObject({ status: 200, body: { path: repo, head: before.head, branch: "main", testCommand: "npm test" } });
    expect(checkoutState(repo)).toEqual(before);
    // A repository whose tests cannot be told: the dialog asks for a command.
    const untestable = mkdtempSync(join(tmpdir(), "quorum-notests-"));
    execFileSync("git", ["init", "-q"], { cwd: untestable });
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x", "--allow-empty"], { cwd: untestable });
    expect(await inspect(untestable, { cookie: human.cookie })).toMatchObject({ status: 200, body: { testCommand: null } });
    // The list carries the default allowance the dialog shows.
    expect((await call(listRoute, "/api/flights", { cookie: human.cookie })).body.defaultAllowance).toBe(DEFAULT_FLIGHT_ALLOWANCE);
  });

  it("says why a path will not do, and is for humans only", async () => {
    const human = await makeHuman();
    const plain = mkdtempSync(join(tmpdir(), "quorum-plain-"));
    expect(await inspect(plain, { cookie: human.cookie })).toMatchObject({ status: 400, body: { error: "invalid", message: expect.stringMatching(/not a git repository/) } });
    expect(await inspect("relative/dir", { cookie: human.cookie })).toMatchObject({ status: 400, body: { message: expect.stringMatching(/absolute path/) } });
    expect(await inspect(join(plain, "nowhere"), { cookie: human.cookie })).toMatchObject({ status: 400, body: { message: expect.stringMatching(/there is no folder/) } });
    expect((await call(inspectRoute, "/api/flights/inspect", { cookie: human.cookie })).status).toBe(400);
    const agent = await makeAgent();
    expect((await inspect(scratch(), { key: agent.key })).status).toBe(403);
  });
});

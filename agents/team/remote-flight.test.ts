// A flight on a remote repository, flown whole: the team works in the hub's clone of a repository served by
// git's own http-backend behind a token, and each integration's branch reaches the remote; the user's remote
// main is untouched, and the forge's token is in no event the flight journalled.
import { execFileSync } from "node:child_process";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { events } from "../../db/schema";
import { systemClock } from "../../domain/clock";
import { addForgeHost } from "../../domain/forges/hosts";
import { fly, liveModel, stopModelServers, suiteOn } from "../../test/fixtures/flying";
import { startGitHttpServer, type GitHttpServer } from "../../test/fixtures/git-http-server";
import { acceptingReviewer, twoFailuresRepo } from "../../test/fixtures/repos";
import { makeHuman } from "../../test/helpers";

const TOKEN = "forge-token-team-3b7d1e";
let forge: GitHttpServer;

beforeAll(async () => {
  forge = await startGitHttpServer(TOKEN);
});
afterEach(stopModelServers);
afterAll(() => forge.close());

it("flies a goal on a repository named by its URL and pushes the reviewed branch back to it", { timeout: 180_000 }, async () => {
  const fixture = twoFailuresRepo();
  const bare = `${forge.root}/team/two-failures.git`;
  execFileSync("git", ["clone", "--quiet", "--bare", fixture.repo, bare]);
  const main = execFileSync("git", ["-C", bare, "rev-parse", "main"], { encoding: "utf8" }).trim();
  await addForgeHost(getDb(), await makeHuman(), { host: forge.host, apiUrl: `${forge.origin}/api/v3`, token: TOKEN }, systemClock);

  const model = await liveModel({ orchestrator: fixture.orchestrator, coder: fixture.coder, reviewer: acceptingReviewer }, "openai");
  const { flight } = await fly(`${forge.origin}/team/two-failures.git`, fixture.goal, model);
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
  const [{ n }] = await getDb().execute<{ n: number }>(sql`select count(*)::int as n from events where data::text like ${`%${TOKEN}%`}`);
  expect(n).toBe(0);
});

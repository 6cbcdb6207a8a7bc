// Flights on repositories with dependencies (issue 42): the setup installs them once per flight, through the
// hub's registry proxy, before anyone works; every coder's worktree and the suite's see them; a second flight
// on the same lockfile reuses them. Real registries: npm's over the network, pip's from this machine's own
// index (a `file://` mirror, as a company's would be).
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "../../db/client";
import { events, flights, messages, tasks } from "../../db/schema";
import { retryFlight } from "../../domain/flights/hand-back";
import { systemClock } from "../../domain/clock";
import { startWorker, until } from "../../test/fixtures/team";
import type { EventPayloads } from "../../domain/journal/payloads";
import { readTaskTests } from "../../domain/tasks/tests";
import { fly, lastTestReport, liveModel, stopModelServers, suiteOn } from "../../test/fixtures/flying";
import { acceptingReviewer, checkoutState, clsxRepo, fixtureRepo, npmDependencyRepo, pipProjectRepo } from "../../test/fixtures/repos";
import { quorumHomePath } from "../../domain/config";

afterEach(stopModelServers);
// This machine's pip has no route to pypi.org: its own index is named the index, as a company mirror would be
// (the hub reads its registries once, from pip's own configuration, which its environment is part of).
beforeAll(() => {
  vi.stubEnv("PIP_INDEX_URL", "file:///opt/pypi/simple");
});
afterAll(() => {
  vi.unstubAllEnvs();
});

type Ended = EventPayloads["FlightSetupEnded"];

async function setupEvents(flightId: string) {
  return getDb()
    .select({ kind: events.kind, data: events.data })
    .from(events)
    .where(and(sql`${events.kind} like 'FlightSetup%'`, sql`${events.data}->>'flightId' = ${flightId}`))
    .orderBy(asc(events.id));
}

async function endedOf(flightId: string): Promise<Ended> {
  const ended = (await setupEvents(flightId)).filter((e) => e.kind === "FlightSetupEnded");
  expect(ended).toHaveLength(1);
  return ended[0].data as Ended;
}

describe("flights on repositories with dependencies", () => {
  it("installs npm dependencies from the registry once, every worktree sees them, and a second flight reuses them", async () => {
    const fixture = npmDependencyRepo();
    const before = checkoutState(fixture.repo);
    const model = await liveModel({ orchestrator: fixture.orchestrator, coder: fixture.coder, reviewer: acceptingReviewer }, "openai");
    const { flight } = await fly(fixture.repo, fixture.goal, model);
    expect(flight.setupCommand).toBe("npm ci");
    expect(flight.setupSource).toBe("detected");
    const first = await endedOf(flight.id);
    expect(first.ok, first.log).toBe(true);
    expect(flight.status).toBe("green");
    expect(first).toMatchObject({ ok: true, reused: false, command: "npm ci" });
    expect(first.log).toMatch(/added 1 package/);
    // The environment lives in Quorum's home, by the lockfile's digest; the user's checkout is as it was.
    expect(readdirSync(join(quorumHomePath(), "environments", first.digest))).toContain("node_modules");
    expect(checkoutState(fixture.repo)).toEqual(before);
    // The suite passes on the branch handed back (the user's own node_modules, as they would run it).
    expect(suiteOn(fixture.repo, flight.branch!, ["node", "--test"], ["npm", "ci", "--ignore-scripts"])).toBe(true);

    const again = await liveModel({ orchestrator: fixture.orchestrator, coder: fixture.coder, reviewer: acceptingReviewer }, "anthropic");
    const second = await fly(fixture.repo, fixture.goal, again);
    expect(second.flight.status).toBe("green");
    const reused = await endedOf(second.flight.id);
    expect(reused).toMatchObject({ ok: true, reused: true, digest: first.digest, elapsedMs: 0 });
    expect((await setupEvents(second.flight.id)).map((e) => e.kind)).toEqual(["FlightSetupEnded"]);
  }, 240_000);

  it("a Python project installs itself with pip into a virtualenv, and pytest runs from it", async () => {
    {
      const fixture = pipProjectRepo();
      const model = await liveModel({ orchestrator: fixture.orchestrator, coder: fixture.coder, reviewer: acceptingReviewer }, "openai");
      const { flight, goalTask } = await fly(fixture.repo, fixture.goal, model);
      expect(flight.setupCommand).toBe("python3 -m venv .venv && .venv/bin/pip install -e '.[test]'");
      expect(flight.testCommand).toBe("python3 -m pytest");
      const ended = await endedOf(flight.id);
      expect(ended.ok, ended.log).toBe(true);
      expect(flight.status).toBe("green");
      expect(await lastTestReport()).toMatch(/1 passed/);
      // The suite ran once at the base commit, after the setup and before the plan: pytest's summary names what failed.
      expect(flight.baselineTests).toMatchObject({ format: "pytest", namesPasses: false, failed: ["tests/test_total.py::test_total"] });
      // What was red there is the goal's target: its review shows it fixed on the flight's branch.
      expect(await readTaskTests(getDb(), goalTask.id)).toMatchObject({
        targets: ["tests/test_total.py::test_total"],
        hasBaseline: true,
        delta: { fixed: ["tests/test_total.py::test_total"], stillFailing: [], broken: [] },
        refusal: null,
      });
    }
  }, 240_000);

  it("a real library (clsx, its runner a devDependency) with a bug planted: set up, fixed, reviewed, green", async () => {
    const fixture = clsxRepo();
    const model = await liveModel({ orchestrator: fixture.orchestrator, coder: fixture.coder, reviewer: acceptingReviewer }, "anthropic");
    const { flight, goalTask } = await fly(fixture.repo, fixture.goal, model);
    expect(flight.setupCommand).toBe("npm install");
    expect((await endedOf(flight.id)).ok).toBe(true);
    expect(flight.status).toBe("green");
    const [goal] = await getDb().select().from(tasks).where(eq(tasks.id, goalTask.id));
    expect(goal.status).toBe("review");
    expect(suiteOn(fixture.repo, flight.branch!, ["npm", "test"], ["npm", "install", "--ignore-scripts"])).toBe(true);
    expect(suiteOn(fixture.repo, "main", ["npm", "test"], ["npm", "install", "--ignore-scripts"])).toBe(false);
  }, 240_000);

  it("a setup that fails hands the goal back red, with its log and its reason; nobody works", async () => {
    const repo = fixtureRepo("broken-setup", {
      "package.json": JSON.stringify({ name: "broken-setup", private: true, scripts: { test: "node --test" } }),
      ".quorum/setup": 'echo "fetching the toolchain"\necho "no such toolchain" >&2\nexit 3\n',
    });
    const model = await liveModel({ orchestrator: [], coder: [], reviewer: acceptingReviewer }, "openai");
    const { flight, goalTask, human } = await fly(repo, "Anything.", model);
    expect(flight).toMatchObject({ status: "red", setupCommand: "sh .quorum/setup", setupSource: "file" });
    const ended = await endedOf(flight.id);
    expect(ended).toMatchObject({ ok: false, exitCode: 3, reason: "`sh .quorum/setup` exited with code 3" });
    expect(ended.log).toContain("no such toolchain");
    const [goal] = await getDb().select().from(tasks).where(eq(tasks.id, goalTask.id));
    expect(goal).toMatchObject({ status: "ready", ownerId: null });
    const released = await getDb()
      .select({ data: events.data })
      .from(events)
      .where(and(eq(events.kind, "TaskReleased"), eq(events.taskId, goalTask.id)));
    expect((released[0].data as { reason: string }).reason).toContain("the setup failed");
    // No environment was kept, and no plan was made.
    expect(existsSync(join(quorumHomePath(), "environments", ended.digest))).toBe(false);
    const planned = await getDb()
      .select()
      .from(events)
      .where(and(eq(events.kind, "FlightPlanned"), sql`${events.data}->>'flightId' = ${flight.id}`));
    expect(planned).toHaveLength(0);
    // The human is told it was the setup, not the model; a Retry runs the setup again (and says so again).
    const told = async () => (await getDb().select({ body: messages.body }).from(messages).where(eq(messages.taskId, goalTask.id))).map((m) => m.body);
    expect((await told()).filter((b) => b.startsWith("The flight's setup failed: "))).toHaveLength(1);
    expect((await told()).join("\n")).not.toContain("The model");
    await retryFlight(getDb(), human, flight.id, { mode: "live" }, systemClock);
    const team = startWorker({ model, coders: 2 });
    try {
      await until("the setup to fail again", async () => ((await setupEvents(flight.id)).filter((e) => e.kind === "FlightSetupEnded").length === 2 ? true : null), 60_000);
      await until("the goal to come back again", async () => ((await told()).filter((b) => b.startsWith("The flight's setup failed: ")).length === 2 ? true : null), 60_000);
    } finally {
      await team.stop();
    }
    const [again] = await getDb().select().from(flights).where(eq(flights.id, flight.id));
    expect(again.status).toBe("red");
  }, 240_000);
});

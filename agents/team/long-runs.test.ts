// Runs that take long and are spoken to, through the stand-in model server: a human's @mention reaches the
// coder's next model request; a 60-second coder run on a 20-second lease keeps its task (no stall, no expiry);
// its worker SIGKILLed mid-run, the replacement carries the same run on from its journal and submits.
// The lease is set before anything reads the configuration (domain/config.ts reads it once, when first asked).
process.env.QUORUM_LEASE_SECONDS = "20";

import { and, asc, eq, inArray } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { events, flights, taskEvidence, taskOutputs, tasks } from "../../db/schema";
import { systemClock } from "../../domain/clock";
import { launchFlight } from "../../domain/flights/launch";
import { payloadOf } from "../../domain/journal/payloads";
import { postMessage } from "../../domain/rooms/post-message";
import { sweepStalledAgents } from "../../domain/roster/stall";
import { sweepExpiredLeases } from "../../domain/tasks/expire";
import { startModelServer, type ModelServer, type Playbook } from "../../test/fixtures/model-server";
import { acceptingReviewer, slowSlugRepo } from "../../test/fixtures/repos";
import { flightTaskIds, startWorker, suitePasses, until } from "../../test/fixtures/team";
import { spawnWorkerProcess } from "../../test/fixtures/worker-process";
import { makeHuman } from "../../test/helpers";
import { modelClientFromEnv } from "../model/from-env";
import { TEAM_ROOM } from "./speak";
import { ensureTeam } from "./team";

let server: ModelServer | undefined;
const stops: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
  await server?.stop();
  server = undefined;
});

async function standIn(playbook: Playbook) {
  server = await startModelServer();
  await server.setPlaybook(playbook);
  const env = { QUORUM_MODEL: "stand-in-gpt", QUORUM_OPENAI_BASE_URL: `${server.url}/v1`, QUORUM_OPENAI_API_KEY: "sk-stand-in" };
  return { env, model: modelClientFromEnv(env)! };
}

async function flightOf(repo: string, goal: string, mode: string) {
  const db = getDb();
  const human = await makeHuman();
  const team = await ensureTeam(db, systemClock, 1);
  const { flight } = await launchFlight(db, human, { goal, repo, mode }, systemClock);
  return { db, human, team, flight };
}

const settled = (flightId: string) =>
  until(
    "the flight to settle",
    async () => {
      const [row] = await getDb().select().from(flights).where(eq(flights.id, flightId));
      return row.status === "green" || row.status === "red" ? row : null;
    },
    200_000,
  );

async function subtaskOf(flightId: string): Promise<string> {
  return until("the plan", async () => (await flightTaskIds(flightId))[1]);
}

const kindsOn = async (taskId: string, kinds: string[]) =>
  getDb()
    .select()
    .from(events)
    .where(and(eq(events.taskId, taskId), inArray(events.kind, kinds)))
    .orderBy(asc(events.id));

describe("a coder run hears the room", { timeout: 120_000 }, () => {
  it("a human's @coder message during the run is in that coder's next model request, and in the turn's journalled mail", async () => {
    const fixture = slowSlugRepo(2_500);
    const { model } = await standIn({ orchestrator: fixture.orchestrator, coder: fixture.coder, reviewer: acceptingReviewer });
    const { db, human, team, flight } = await flightOf(fixture.repo, fixture.goal, model.name);
    const worker = startWorker({ model, coders: 1 });
    stops.push(() => worker.stop());
    const taskId = await subtaskOf(flight.id);
    const coder = team.coders[0].principal;
    // The coder's first model call is on its way (and answers in 2.5 s): speak to it now.
    await until("the coder's first model call", async () => (await kindsOn(taskId, ["ModelCalled"])).find((e) => e.actor === coder.id));
    const steer = await postMessage(db, human, TEAM_ROOM, { body: `@${coder.name} keep the exported names` }, systemClock);

    expect((await settled(flight.id)).status).toBe("green");
    const coderRequests = (await server!.requests()).filter((r) => r.role === "coder");
    const heard = coderRequests.findIndex((r) => r.texts.some((t) => t.includes("keep the exported names")));
    expect(heard, "a coder request carried the human's words").toBeGreaterThan(0);
    expect(coderRequests[heard].texts.join("\n")).toContain(`from ${human.name}`);
    // The coder's turns (the reviewer's run on the task hears the human in the room too).
    const called = (await kindsOn(taskId, ["ModelCalled"])).filter((e) => e.actor === coder.id).map((e) => payloadOf(e, "ModelCalled"));
    const delivered = called.flatMap((d) => d.mail ?? []).filter((m) => m.messageId === steer.id);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]).toMatchObject({ fromKind: "human", fromName: human.name });
  });
});

describe("a long coder run keeps its lease and its work", { timeout: 300_000 }, () => {
  it("60 s on a 20 s lease: renewed, never stalled or expired; SIGKILLed mid-run, the replacement carries the same run on and submits", async () => {
    const fixture = slowSlugRepo(15_000);
    const { env, model } = await standIn({ orchestrator: fixture.orchestrator, coder: fixture.coder, reviewer: acceptingReviewer });
    const { db, flight, team } = await flightOf(fixture.repo, fixture.goal, model.name);
    const coderRuns = async () => (await kindsOn(taskId, ["RunStarted"])).filter((e) => e.actor === team.coders[0].principal.id);
    // The orchestrator, reviewer and tester here; the coder in a worker process of its own, which we kill.
    const rest = startWorker({ model, coders: 1, roles: ["orchestrator", "reviewer", "tester"] });
    stops.push(() => rest.stop());
    const coderWorker = () => {
      const worker = spawnWorkerProcess(["--agent", "coder"], { ...env, QUORUM_CODERS: "1", QUORUM_PACE_MS: "0" });
      stops.push(worker.kill);
      return worker;
    };
    // The sweepers a hub runs, every second: they would journal a stall or an expiry the moment one happened.
    const sweeping = setInterval(() => {
      void sweepExpiredLeases(db, systemClock).catch(() => {});
      void sweepStalledAgents(db, systemClock).catch(() => {});
    }, 1_000);
    stops.push(() => clearInterval(sweeping));

    const first = coderWorker();
    const taskId = await subtaskOf(flight.id);
    // Three of its four answers (45 s) are in, each tool result stored on the task: kill it while it waits for the fourth.
    await until("three tool results stored", async () => (await db.select().from(taskOutputs).where(eq(taskOutputs.taskId, taskId))).length >= 3, 120_000, first.output);
    const [held] = await db.select().from(tasks).where(eq(tasks.id, taskId));
    expect(held.status).toBe("in_progress");
    expect(await kindsOn(taskId, ["AgentStalled", "LeaseExpired"])).toEqual([]);
    const renewals = await kindsOn(taskId, ["LeaseRenewed"]);
    expect(renewals.length, "renewed at each boundary and between").toBeGreaterThanOrEqual(6);
    await first.kill();
    expect(await coderRuns()).toHaveLength(1);
    const requestsBefore = (await server!.requests()).filter((r) => r.role === "coder").length;

    coderWorker();
    expect((await settled(flight.id)).status).toBe("green");
    expect(suitePasses(fixture.repo, flight.branch)).toBe(true);
    // The same run, carried on: no second RunStarted, its next request holds the three answers it already had.
    expect(await coderRuns()).toHaveLength(1);
    const resumed = (await server!.requests()).filter((r) => r.role === "coder").slice(requestsBefore);
    expect(resumed[0]?.turn).toBe(3);
    expect(await kindsOn(taskId, ["LeaseExpired"])).toEqual([]);
    expect(await kindsOn(taskId, ["TaskSubmitted"])).toHaveLength(1);
    // Its evidence is the test run the first process made, read back from the run's journal.
    const [evidence] = await db.select().from(taskEvidence).where(eq(taskEvidence.taskId, taskId)).orderBy(asc(taskEvidence.id));
    expect(evidence.evidence).toContain("test run: exit code 0");
    const stored = await db.select().from(taskOutputs).where(eq(taskOutputs.taskId, taskId)).orderBy(asc(taskOutputs.seq));
    expect(stored.map((o) => (o.item as { tool: string }).tool)).toEqual(["read_file", "edit_file", "run_tests"]);
  });
});

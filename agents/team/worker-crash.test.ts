// A coder's worker is SIGKILLed mid-task; its lease expires, a replacement finishes, the flight goes green.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import { afterEach, expect, it } from "vitest";
import { getConnection, getDb } from "../../db/client";
import { contextOf } from "../../domain/context";
import { events, flights, flightTasks, tasks } from "../../db/schema";
import { manualClock, systemClock } from "../../domain/clock";
import { QuorumError } from "../../domain/errors";
import { heartbeat } from "../../domain/tasks/heartbeat";
import { sweepExpiredLeases } from "../../domain/tasks/expire";
import { suitePasses, until } from "../../test/fixtures/team";
import { makeHuman } from "../../test/helpers";
import { createScratchRepo, DEMO_GOAL } from "../demo/scratch-repo";
import { launchFlight } from "../../domain/flights/launch";
import { ensureTeam, type Role } from "./team";
import { runTeamWorker } from "./worker";
import { spawnWorkerProcess } from "../../test/fixtures/worker-process";

const stops: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

function inProcessWorker(roles: Role[]) {
  const controller = new AbortController();
  const done = runTeamWorker(contextOf(getConnection()), { roles, model: null, signal: controller.signal, log: () => {} });
  return {
    stop: async () => {
      controller.abort();
      return done;
    },
  };
}

it("survives a SIGKILLed coder worker: the lease expires, a replacement finishes, the old fence is refused", async () => {
  const db = getDb();
  const repo = createScratchRepo(mkdtempSync(join(tmpdir(), "quorum-crash-")));
  const human = await makeHuman();
  const team = await ensureTeam(db, systemClock);
  const { flight } = await launchFlight(db, human, { goal: DEMO_GOAL, repo, mode: "scripted" }, systemClock);

  const planner = inProcessWorker(["orchestrator"]);
  stops.push(planner.stop);
  // The plan is recorded (plannedAt) after its tasks are filed: a coder takes none before, so stopping the planner at
  // the first task, as this test once did, left a busy machine's flight unplanned and the coder idle.
  const planned = await until("the plan", async () => {
    const [row] = await db.select({ plannedAt: flights.plannedAt }).from(flights).where(eq(flights.id, flight.id));
    return row.plannedAt && (await db.select().from(flightTasks).where(eq(flightTasks.flightId, flight.id)))[0];
  });
  await planner.stop();

  // A coder worker process whose test run never ends: we kill it while it waits on run_tests.
  const hang = join(mkdtempSync(join(tmpdir(), "quorum-hang-")), "hang.js");
  writeFileSync(hang, "setTimeout(() => {}, 600000);\n");
  // One coder, the one this test knows: with a worker's default two, coder-2 could take the task instead.
  const coder = spawnWorkerProcess(["--agent", "coder"], { QUORUM_CODERS: "1", QUORUM_TEST_COMMAND: `node ${hang}` });
  stops.push(coder.kill);
  await until(
    "the coder to start its tests",
    async () =>
      (
        await db
          .select()
          .from(events)
          .where(and(eq(events.kind, "ToolDispatched"), eq(events.actor, team.coders[0].principal.id), eq(events.taskId, planned.taskId)))
      ).some((e) => (e.data as { tool?: string }).tool === "run_tests"),
    90_000,
    coder.output,
  );
  await coder.kill();
  const [held] = await db.select().from(tasks).where(eq(tasks.id, planned.taskId));
  expect(held.status).toBe("in_progress");

  // Time passes (an injected clock, no sleeping): the sweeper returns the task to ready.
  const later = manualClock(new Date(held.leaseExpiresAt!.getTime() + 1_000));
  const sweep = await sweepExpiredLeases(db, later);
  expect(sweep.expired.map((e) => e.taskId)).toContain(planned.taskId);

  const team2 = inProcessWorker(["orchestrator", "coder", "reviewer", "tester"]);
  stops.push(team2.stop);
  await until("a green flight", async () => {
    const [row] = await db.select().from(flights).where(eq(flights.id, flight.id));
    return row.status === "green" || row.status === "red" ? row : null;
  });
  await team2.stop();
  const [after] = await db.select().from(flights).where(eq(flights.id, flight.id));
  expect(after.status).toBe("green");
  expect(suitePasses(repo, flight.branch)).toBe(true);

  // The dead worker's late write carries its old fence and changes nothing.
  const late = await heartbeat(db, team.coders[0].principal, planned.taskId, { fence: held.fence }, systemClock).catch((e: unknown) => e);
  expect(late).toBeInstanceOf(QuorumError);
  expect((late as QuorumError).code).toBe("stale_fence");
}, 120_000); // it spawns a worker process and flies a whole flight: a busy machine takes more than the default 30 s

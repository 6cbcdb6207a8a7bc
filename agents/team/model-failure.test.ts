// A model that fails never leaves a flight stuck: the goal or task a run held is released at once, the
// human who posted the goal finds it in "waiting for you" with retry / run scripted / cancel, and the
// Room is told once per streak of failures. The model is a separate server process.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, asc, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
const retryRoute = apiHandler("POST", "/api/flights/[id]/retry");
import { getDb } from "../../db/client";
import { events, flights, messages, tasks } from "../../db/schema";
import { systemClock } from "../../domain/clock";
import { listWaiting } from "../../domain/desk/waiting";
import { launchFlight } from "../../domain/flights/launch";
import { getSystemPrincipal } from "../../domain/principals/create-principal";
import { startModelServer, type ModelServer } from "../../test/fixtures/model-server";
import { ackAndPost } from "../../test/fixtures/room";
import { settledStatus, startWorker, until } from "../../test/fixtures/team";
import { call, makeHuman } from "../../test/helpers";
import { createScratchRepo, DEMO_GOAL } from "../demo/scratch-repo";
import { openAiCompatibleClient } from "../model/openai-compatible";
import { ensureTeam } from "./team";
import { apiHandler } from "../../test/api";

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** A live client that does not wait between tries (the drills count tries, not seconds). */
function liveModel(url: string) {
  return openAiCompatibleClient({
    baseUrl: `${url}/v1`,
    model: "stand-in",
    retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1_000, timeoutMs: 1_000, sleep: async () => {}, random: () => 0.5 },
  });
}

async function launch(human: Awaited<ReturnType<typeof makeHuman>>, mode: string) {
  const repo = createScratchRepo(mkdtempSync(join(tmpdir(), "quorum-fail-")));
  await ackAndPost(human, "general", { body: `A goal for the team (${Date.now()}).` }, systemClock);
  return launchFlight(getDb(), human, { goal: DEMO_GOAL, repo, mode }, systemClock);
}

async function goalOf(flightId: string) {
  const [row] = await getDb().select({ flight: flights, goal: tasks }).from(flights).innerJoin(tasks, eq(tasks.id, flights.goalTaskId)).where(eq(flights.id, flightId));
  return row;
}

async function noticesTo(humanId: string) {
  const system = await getSystemPrincipal(getDb());
  return getDb()
    .select()
    .from(messages)
    .where(and(eq(messages.senderId, system.id), eq(messages.toId, humanId), eq(messages.performative, "ERROR")))
    .orderBy(asc(messages.id));
}

describe("a failing model", { timeout: 120_000 }, () => {
  it("hands a goal whose planning hit HTTP 500 back to its human at once, tells the Room once, and a scripted retry finishes it", async () => {
    const db = getDb();
    server = await startModelServer({ mode: "status", status: 500 });
    const model = liveModel(server.url);
    const human = await makeHuman();
    const team = await ensureTeam(db, systemClock);
    const first = await launch(human, model.name);
    const worker = startWorker({ model });
    try {
      const handed = await until("the goal to come back", async () => {
        const row = await goalOf(first.flight.id);
        return row.goal.status === "ready" && row.flight.status === "red" ? row : null;
      });
      expect(handed.goal.ownerId).toBeNull();
      // Three tries (two journalled retries), one failure, one release naming the human.
      const kinds = (await db.select().from(events).where(eq(events.taskId, first.goalTask.id)).orderBy(asc(events.id))).map((e) => e.kind);
      expect(kinds.filter((k) => k === "ModelRetried")).toHaveLength(2);
      expect(kinds.filter((k) => k === "ModelFailed")).toHaveLength(1);
      const [released] = await db
        .select()
        .from(events)
        .where(and(eq(events.kind, "TaskReleased"), eq(events.taskId, first.goalTask.id)));
      expect(released.data).toMatchObject({ outcome: "failed", handedTo: human.id, model: "openai-compatible:stand-in", told: true, streak: 1, coolDownUntil: null });

      const waiting = await listWaiting(db, human);
      expect(waiting.items).toMatchObject([
        {
          kind: "handback",
          flightId: first.flight.id,
          taskId: first.goalTask.id,
          outcome: "failed",
          actions: ["retry", "scripted", "cancel"],
          reason: expect.stringContaining("HTTP 500"),
        },
      ]);
      expect(waiting.byPage["/board"]).toBe(1);
      // Quorum speaks after the release commits.
      const notice = await until("the Room's notice", async () => (await noticesTo(human.id)).at(0));
      expect(notice.body).toContain("The model openai-compatible:stand-in failed");
      expect(notice.body).toContain("HTTP 500");
      expect(notice.body).toMatch(/What to do: .*retry later, or run the flight scripted/);

      // A second flight fails the same way: released too, but the Room is not told again.
      const second = await launch(human, model.name);
      const again = await until("the second goal to come back", async () =>
        (
          await db
            .select()
            .from(events)
            .where(and(eq(events.kind, "TaskReleased"), eq(events.taskId, second.goalTask.id)))
        ).at(0),
      );
      expect(again.data).toMatchObject({ told: false, streak: 2 });
      await new Promise((r) => setTimeout(r, 300));
      expect(await noticesTo(human.id)).toHaveLength(1);

      // Only the human who posted it may retry; they choose scripted, and the flight finishes.
      const stranger = await makeHuman();
      expect((await call(retryRoute, `/api/flights/${first.flight.id}/retry`, { cookie: stranger.cookie, method: "POST", body: {}, params: { id: first.flight.id } })).status).toBe(
        403,
      );
      const retried = await call(retryRoute, `/api/flights/${first.flight.id}/retry`, {
        cookie: human.cookie,
        method: "POST",
        body: { mode: "scripted" },
        params: { id: first.flight.id },
      });
      expect(retried.status).toBe(200);
      expect(retried.body).toMatchObject({ status: "planning", mode: "scripted (chosen by a human)" });
      expect(await until("the retried flight to settle", () => settledStatus(first.flight.id), 60_000)).toBe("green");
      expect((await listWaiting(db, human)).items.map((i) => i.kind)).toEqual(["handback", "review"]);
      // Nothing of the team's is left in progress without a run.
      const held = await db.select().from(tasks).where(eq(tasks.status, "in_progress"));
      expect(held.filter((t) => Object.values(team).some((m) => m.principal.id === t.ownerId))).toEqual([]);
    } finally {
      await worker.stop();
    }
  });

  it("releases a subtask whose coder was refused (HTTP 401) back to ready with a cool-down, and tells the human to check the key", async () => {
    const db = getDb();
    server = await startModelServer();
    const model = liveModel(server.url);
    const human = await makeHuman();
    await ensureTeam(db, systemClock);
    const { flight } = await launch(human, model.name);
    const worker = startWorker({ model, roles: ["orchestrator"] });
    const planned = await until("the plan", async () => ((await goalOf(flight.id)).flight.status === "working" ? true : null));
    await worker.stop();
    expect(planned).toBe(true);

    await server.setFault({ mode: "status", status: 401 });
    const coder = startWorker({ model, roles: ["coder"] });
    try {
      const released = await until("the release", async () =>
        (await db.select().from(events).where(eq(events.kind, "TaskReleased"))).find((e) => (e.data as { flightId: string }).flightId === flight.id),
      );
      const data = released.data as { outcome: string; coolDownUntil: string; reason: string };
      expect(data).toMatchObject({ outcome: "failed", handedTo: null, reason: expect.stringContaining("HTTP 401") });
      expect(Date.parse(data.coolDownUntil)).toBeGreaterThan(Date.now() + 30_000);
      const [task] = await db.select().from(tasks).where(eq(tasks.id, released.taskId!));
      expect(task).toMatchObject({ status: "ready", ownerId: null });
      // A 401 is not retried: one request for the coder's call, and none again within the cool-down.
      const before = (await server.usage()).requests;
      await new Promise((r) => setTimeout(r, 1_500));
      expect((await server.usage()).requests).toBe(before);
      const notice = await until("the Room's notice", async () => (await noticesTo(human.id)).at(0));
      expect(notice.body).toContain("check QUORUM_OPENAI_API_KEY");
    } finally {
      await coder.stop();
    }
  });
});

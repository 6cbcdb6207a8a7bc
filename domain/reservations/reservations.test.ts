// Path reservations through their routes and server functions: grants, refusals with holders, leases and fences.
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { events, reservations } from "../../db/schema";
import { getDb } from "../../db/client";
import { call, makeAgent, makeHuman } from "../../test/helpers";
const listRoute = apiHandler("GET", "/api/reservations");
const reserveRoute = apiHandler("POST", "/api/reservations");
const checkRoute = apiHandler("POST", "/api/reservations/check");
const renewRoute = apiHandler("POST", "/api/reservations/[id]/renew");
const releaseRoute = apiHandler("POST", "/api/reservations/[id]/release");
const forceRoute = apiHandler("POST", "/api/reservations/[id]/force-release");
import { manualClock } from "../clock";
import { QuorumError } from "../errors";
import { readInbox } from "../rooms/inbox";
import { createTask } from "../tasks/create";
import { renewReservation } from "./renew";
import { reservePaths, type ReservePathsInput } from "./reserve";
import { sweepReservations } from "./sweep";
import { apiHandler } from "../../test/api";

const at = (id: string, op: string) => ({ path: `/api/reservations/${id}/${op}`, params: { id } });

async function refusal(work: Promise<unknown>): Promise<QuorumError> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(QuorumError);
  return error as QuorumError;
}

describe("reserving over HTTP", () => {
  it("grants 201, refuses an overlapping exclusive reservation 409 with holders, patterns and expiries", async () => {
    const [ada, bo] = [await makeAgent(), await makeAgent()];
    const scope = `repo-${ada.name}`;
    const granted = await call(reserveRoute, "/api/reservations", { key: ada.key, body: { patterns: ["src/lib/**", "docs/api.md"], reason: "tokenizer rewrite", scope } });
    expect(granted.status).toBe(201);
    expect(granted.body).toMatchObject({
      holderId: ada.id,
      holderName: ada.name,
      patterns: ["src/lib/**", "docs/api.md"],
      mode: "exclusive",
      status: "active",
      ttlSeconds: 1800,
      scope,
    });
    const refused = await call(reserveRoute, "/api/reservations", { key: bo.key, body: { patterns: ["src/{lib,app}/parse.ts"], reason: "parser", scope } });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      error: "reserved",
      holders: [
        {
          holderId: ada.id,
          holderName: ada.name,
          patterns: ["src/lib/**", "docs/api.md"],
          expiresAt: granted.body.expiresAt,
          fence: granted.body.fence,
          overlaps: [{ requested: "src/{lib,app}/parse.ts", held: "src/lib/**", example: "src/lib/parse.ts" }],
        },
      ],
    });
    expect(refused.body.message).toContain(ada.name);
    // Another scope is another repository; a disjoint path is free; the holder may reserve inside its own.
    expect((await call(reserveRoute, "/api/reservations", { key: bo.key, body: { patterns: ["src/lib/**"], reason: "x", scope: `${scope}-other` } })).status).toBe(201);
    expect((await call(reserveRoute, "/api/reservations", { key: bo.key, body: { patterns: ["src/app/**"], reason: "x", scope } })).status).toBe(201);
    expect((await call(reserveRoute, "/api/reservations", { key: ada.key, body: { patterns: ["src/lib/a.ts"], reason: "x", scope } })).status).toBe(201);
    const granted_ = await getDb()
      .select()
      .from(events)
      .where(and(eq(events.kind, "ReservationGranted"), eq(events.actor, bo.id)));
    expect(granted_).toHaveLength(2); // the refusal journalled nothing and stored nothing
  });

  it("lets shared reservations share, but not with an exclusive one", async () => {
    const [ada, bo, cy] = [await makeAgent(), await makeAgent(), await makeAgent()];
    const scope = `shared-${ada.name}`;
    const body = (mode: string) => ({ patterns: ["db/schema/**"], mode, reason: "reading the schema", scope });
    expect((await call(reserveRoute, "/api/reservations", { key: ada.key, body: body("shared") })).status).toBe(201);
    expect((await call(reserveRoute, "/api/reservations", { key: bo.key, body: body("shared") })).status).toBe(201);
    const exclusive = await call(reserveRoute, "/api/reservations", { key: cy.key, body: body("exclusive") });
    expect(exclusive.status).toBe(409);
    expect(exclusive.body.holders.map((h: { holderName: string }) => h.holderName).sort()).toEqual([ada.name, bo.name].sort());
  });

  it("answers 400 with issues for bad input, 404 for an unknown task, 401 without a key", async () => {
    const ada = await makeAgent();
    for (const body of [
      {},
      { patterns: [], reason: "x" },
      { patterns: ["/abs"], reason: "x" },
      { patterns: ["../x"], reason: "x" },
      { patterns: ["!src"], reason: "x" },
      { patterns: ["a"], reason: " " },
      { patterns: ["a"], reason: "x", ttlSeconds: 5 },
      { patterns: ["a"], reason: "x", mode: "mine" },
      { patterns: ["a"], reason: "x", extra: 1 },
      "{",
    ]) {
      const res = await call(reserveRoute, "/api/reservations", { key: ada.key, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe("invalid");
    }
    const unknownTask = await call(reserveRoute, "/api/reservations", { key: ada.key, body: { patterns: ["a"], reason: "x", taskId: "00000000-0000-4000-8000-000000000000" } });
    expect(unknownTask.status).toBe(404);
    expect((await call(reserveRoute, "/api/reservations", { body: { patterns: ["a"], reason: "x" } })).status).toBe(401);
    expect((await call(renewRoute, at("nope", "renew").path, { key: ada.key, params: { id: "nope" }, body: { fence: 1 } })).status).toBe(404);
  });

  it("renews and releases with the fence; a stale fence or someone else is refused", async () => {
    const [ada, bo] = [await makeAgent(), await makeAgent()];
    const scope = `fence-${ada.name}`;
    const r = (await call(reserveRoute, "/api/reservations", { key: ada.key, body: { patterns: ["lib/**"], reason: "x", scope, ttlSeconds: 120 } })).body;
    const renew = at(r.id, "renew");
    const renewed = await call(renewRoute, renew.path, { key: ada.key, params: renew.params, body: { fence: r.fence, ttlSeconds: 600 } });
    expect(renewed.status).toBe(200);
    expect(renewed.body.ttlSeconds).toBe(600);
    expect(new Date(renewed.body.expiresAt).getTime()).toBeGreaterThan(new Date(r.expiresAt).getTime());
    expect((await call(renewRoute, renew.path, { key: ada.key, params: renew.params, body: { fence: r.fence + 1 } })).body).toMatchObject({ error: "stale_fence", fence: r.fence });
    expect((await call(renewRoute, renew.path, { key: bo.key, params: renew.params, body: { fence: r.fence } })).status).toBe(403);
    const release = at(r.id, "release");
    expect((await call(releaseRoute, release.path, { key: bo.key, params: release.params, body: { fence: r.fence } })).status).toBe(403);
    const released = await call(releaseRoute, release.path, { key: ada.key, params: release.params, body: { fence: r.fence } });
    expect(released.body).toMatchObject({ status: "released", endedBy: ada.id });
    expect((await call(releaseRoute, release.path, { key: ada.key, params: release.params, body: { fence: r.fence } })).body).toMatchObject({
      error: "stale_fence",
      status: "released",
    });
    expect((await call(reserveRoute, "/api/reservations", { key: bo.key, body: { patterns: ["lib/x.ts"], reason: "x", scope } })).status).toBe(201);
  });

  it("lets only humans force-release, and tells the holder directly", async () => {
    const [lead, ada, bo] = [await makeHuman(), await makeAgent(), await makeAgent()];
    const r = (await call(reserveRoute, "/api/reservations", { key: ada.key, body: { patterns: ["stale/**"], reason: "x", scope: `force-${ada.name}` } })).body;
    const force = at(r.id, "force-release");
    expect((await call(forceRoute, force.path, { key: bo.key, params: force.params, body: { reason: "in my way" } })).status).toBe(403);
    expect((await call(forceRoute, force.path, { cookie: lead.cookie, params: force.params, body: {} })).status).toBe(400);
    const ended = await call(forceRoute, force.path, { cookie: lead.cookie, params: force.params, body: { reason: "ada has been silent for a day" } });
    expect(ended.body).toMatchObject({ status: "force_released", endedBy: lead.id, endReason: "ada has been silent for a day", holderNotified: true });
    const mail = await readInbox(getDb(), ada, "general");
    expect(mail.items.at(-1)).toMatchObject({ to: ada.id, senderName: "quorum", body: expect.stringContaining(`R-${r.fence}`) });
    expect((await call(forceRoute, force.path, { cookie: lead.cookie, params: force.params, body: { reason: "again" } })).body).toMatchObject({ error: "wrong_status" });
  });

  it("checks concrete paths: another's exclusive blocks, shared informs, one's own never blocks", async () => {
    const [ada, bo] = [await makeAgent(), await makeAgent()];
    const scope = `check-${ada.name}`;
    await call(reserveRoute, "/api/reservations", { key: ada.key, body: { patterns: ["src/lib/**"], reason: "edit", scope } });
    await call(reserveRoute, "/api/reservations", { key: ada.key, body: { patterns: ["docs/**"], mode: "shared", reason: "read", scope } });
    const checked = await call(checkRoute, "/api/reservations/check", { key: bo.key, body: { paths: ["src/lib/parse.ts", "docs/a.md", "README.md"], scope } });
    expect(checked.status).toBe(200);
    expect(checked.body).toMatchObject({
      ok: false,
      blocked: [{ path: "src/lib/parse.ts", pattern: "src/lib/**", holderName: ada.name }],
      shared: [{ path: "docs/a.md", holderName: ada.name }],
    });
    expect((await call(checkRoute, "/api/reservations/check", { key: ada.key, body: { paths: ["src/lib/parse.ts"], scope } })).body).toMatchObject({ ok: true, blocked: [] });
    expect((await call(checkRoute, "/api/reservations/check", { key: ada.key, body: { paths: [] } })).status).toBe(400);
    const mine = await call(listRoute, `/api/reservations?holder=me&scope=${scope}`, { key: ada.key });
    expect(mine.body.items).toHaveLength(2);
    expect((await call(listRoute, `/api/reservations?holder=me&scope=${scope}`, { key: bo.key })).body.items).toEqual([]);
  });
});

describe("leases", () => {
  it("an expired reservation stands in nobody's way; the sweeper journals it; a lapsed renewal is refused if taken", async () => {
    const clock = manualClock(new Date());
    const [ada, bo] = [await makeAgent(), await makeAgent()];
    const scope = `ttl-${ada.name}`;
    const input: ReservePathsInput = { patterns: ["app/**"], reason: "x", scope, ttlSeconds: 60 };
    const first = await reservePaths(getDb(), ada, input, clock);
    expect((await refusal(reservePaths(getDb(), bo, input, clock))).code).toBe("reserved");
    clock.advance(61_000);
    const second = await reservePaths(getDb(), bo, input, clock);
    expect(second.fence).toBeGreaterThan(first.fence);
    expect((await refusal(renewReservation(getDb(), ada, first.id, { fence: first.fence }, clock))).code).toBe("reserved");
    const swept = await sweepReservations(getDb(), clock);
    expect(swept.expired.map((e) => e.reservationId)).toContain(first.id);
    const [row] = await getDb().select().from(reservations).where(eq(reservations.id, first.id));
    expect(row.status).toBe("expired");
    const journalled = await getDb().select().from(events).where(eq(events.kind, "ReservationExpired"));
    expect(journalled.map((e) => (e.data as { reservationId: string }).reservationId)).toContain(first.id);
    expect((await refusal(renewReservation(getDb(), ada, first.id, { fence: first.fence }, clock))).code).toBe("stale_fence");
  });

  it("shows on its task: listing by taskId", async () => {
    const lead = await makeHuman();
    const ada = await makeAgent();
    const task = await createTask(getDb(), lead, { title: "t", acceptanceCriteria: "c" }, manualClock());
    const r = (await call(reserveRoute, "/api/reservations", { key: ada.key, body: { patterns: ["t/**"], reason: "for the task", taskId: task.id, scope: `task-${ada.name}` } }))
      .body;
    const listed = await call(listRoute, `/api/reservations?taskId=${task.id}`, { cookie: lead.cookie });
    expect(listed.body.items.map((i: { id: string }) => i.id)).toEqual([r.id]);
    expect((await call(listRoute, "/api/reservations?status=bogus", { cookie: lead.cookie })).status).toBe(400);
  });
});

describe("concurrency", () => {
  it("never lets two agents win overlapping paths at once", async () => {
    const agents = await Promise.all(Array.from({ length: 6 }, () => makeAgent()));
    const patterns = ["src/app/**", "src/app/x.ts", "src/**/x.ts", "src/{app,lib}/x.ts", "**/x.ts", "src/app/*.ts"];
    for (let round = 0; round < 5; round++) {
      const scope = `race-${agents[0].name}-${round}`;
      const outcomes = await Promise.all(
        agents.map((agent, i) => call(reserveRoute, "/api/reservations", { key: agent.key, body: { patterns: [patterns[i]], reason: "race", scope } })),
      );
      expect(outcomes.map((o) => o.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
      const live = await getDb().select().from(reservations).where(eq(reservations.scope, scope));
      expect(live).toHaveLength(1);
    }
  });
});

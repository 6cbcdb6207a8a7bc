// The relay through its HTTP routes: the status codes and bodies of DESIGN §15, and 400s that change nothing.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { systemClock } from "../clock";
const postRoute = apiHandler("POST", "/api/rooms/[room]/messages");
const cursorGet = apiHandler("GET", "/api/rooms/[room]/cursor");
const cursorPost = apiHandler("POST", "/api/rooms/[room]/cursor");
const inboxRoute = apiHandler("GET", "/api/rooms/[room]/inbox");
const gatesRoute = apiHandler("GET", "/api/rooms/[room]/gates");
const presenceRoute = apiHandler("GET", "/api/rooms/[room]/presence");
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { readCursor } from "./cursor";
import { openFocusWindow } from "./focus";
import { freshRoom } from "../../test/fixtures/room";
import { apiHandler } from "../../test/api";

// Route handlers run on the system clock, as in production; nothing here waits on it.
const clock = systemClock;

function at(room: string, what: string) {
  return { path: `/api/rooms/${room}/${what}`, params: { room } };
}

describe("posting over HTTP", () => {
  it("answers each gate with its status and fields", async () => {
    const human = await makeHuman();
    const [a, b] = [await makeAgent(), await makeAgent()];
    const room = await freshRoom(human);
    const m = at(room, "messages");
    const post = (who: { key: string } | { cookie: string }, body: unknown) => call(postRoute, m.path, { params: m.params, ...who, body });

    expect((await post(a, { body: "first" })).status).toBe(201);
    const lapped = await post(a, { body: "second", to: human.name });
    expect(lapped.status).toBe(409);
    expect(lapped.body).toMatchObject({ error: "lapping", sent: 1, speakers: 1 });

    expect((await post(human, { body: "welcome, both" })).status).toBe(201);
    const stale = await post(b, { body: "hello all" });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe("stale");
    expect(stale.body.unread.map((u: { body: string }) => u.body)).toEqual(["first", "welcome, both"]);
    expect(stale.body.holdToken).toEqual(expect.any(String));
    expect((await post(b, { body: "hello all", holdToken: stale.body.holdToken })).status).toBe(201);

    const dupe = await post(a, { body: "first", to: human.name });
    expect(dupe.status).toBe(409);
    expect(dupe.body).toMatchObject({ error: "duplicate", message: expect.stringContaining("exactly") });

    // Since the human spoke, a has said nothing yet: six more pass, the seventh meets the cap.
    for (let i = 1; i <= 6; i++) expect((await post(a, { body: `dm ${i}`, to: human.name })).status).toBe(201);
    const capped = await post(a, { body: "dm 7", to: human.name });
    expect(capped.status).toBe(409);
    expect(capped.body).toMatchObject({ error: "lapping", cap: 6 });

    const strip = await call(gatesRoute, at(room, "gates").path, { params: { room }, cookie: human.cookie });
    expect(strip.status).toBe(200);
    expect(strip.body.items.map((r: { gate: string }) => r.gate)).toEqual(["two_tier", "duplicate", "freshness", "lapping"]);
    expect(strip.body.items[0]).toMatchObject({ room, senderId: a.id, senderName: a.name, reason: "lapping", figures: { cap: 6 } });
  });

  it("answers the rate floor with 429 and retryAfterMs", async () => {
    const human = await makeHuman();
    const a = await makeAgent();
    const room = await freshRoom(human);
    const m = at(room, "messages");
    for (let i = 1; i <= 30; i++) {
      await call(postRoute, m.path, { params: m.params, cookie: human.cookie, body: { body: `go ${i}` } });
      expect((await call(postRoute, m.path, { params: m.params, key: a.key, body: { body: `step ${i}`, to: human.name } })).status).toBe(201);
    }
    const limited = await call(postRoute, m.path, { params: m.params, key: a.key, body: { body: "step 31", to: human.name } });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error: "rate_limited", retryAfterMs: expect.any(Number) });
    // The route runs on the wall clock: the exact figure is pinned with a manual clock in gates.test.ts.
    expect(limited.body.retryAfterMs).toBeGreaterThan(0);
    expect(limited.body.retryAfterMs).toBeLessThanOrEqual(60_000);
  });

  it("words a stale refusal's next step as REST routes, never as MCP tools, and the routes it names work", async () => {
    const human = await makeHuman();
    const a = await makeAgent();
    const room = await freshRoom(human);
    const m = at(room, "messages");
    expect((await call(postRoute, m.path, { params: m.params, cookie: human.cookie, body: { body: "welcome" } })).status).toBe(201);
    const stale = await call(postRoute, m.path, { params: m.params, key: a.key, body: { body: "hello all" } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ error: "stale", unread: [expect.objectContaining({ body: "welcome" })], holdToken: expect.any(String) });
    const seq = stale.body.holdSeq as number;
    expect(stale.body.hint).toBe(`ack with POST /api/rooms/${room}/cursor {"seq": ${seq}}, or repeat POST /api/rooms/${room}/messages with "holdToken" from this refusal`);
    expect(stale.body.hint).not.toMatch(/ack_messages|post_message|call /);
    expect(stale.body.message).not.toMatch(/\/api\//);
    // Following the hint's first step: the ack it names passes, then the post does.
    const c = at(room, "cursor");
    expect((await call(cursorPost, c.path, { params: c.params, key: a.key, body: { seq } })).status).toBe(200);
    const posted = await call(postRoute, m.path, { params: m.params, key: a.key, body: { body: "hello all" } });
    expect(posted.status).toBe(201);
    // A refusal with no next step carries no hint.
    const dupe = await call(postRoute, m.path, { params: m.params, key: a.key, body: { body: "hello all", to: human.name } });
    expect(dupe.body.error).toBe("duplicate");
    expect(dupe.body).not.toHaveProperty("hint");
  });

  it("refuses a malformed hold token with 400", async () => {
    const a = await makeAgent();
    const res = await call(postRoute, "/api/rooms/general/messages", { params: { room: "general" }, key: a.key, body: { body: "x", holdToken: "" } });
    expect(res.status).toBe(400);
    expect(res.body.issues[0].path).toEqual(["holdToken"]);
  });
});

describe("the cursor route", () => {
  it("acks forward, and answers bad input with 400 and the issues, moving nothing", async () => {
    const human = await makeHuman();
    const a = await makeAgent();
    const room = await freshRoom(human);
    const c = at(room, "cursor");
    await call(postRoute, at(room, "messages").path, { params: { room }, cookie: human.cookie, body: { body: "one" } });
    await call(postRoute, at(room, "messages").path, { params: { room }, cookie: human.cookie, body: { body: "two" } });
    expect((await call(cursorPost, c.path, { params: c.params, key: a.key, body: { seq: 1 } })).body).toMatchObject({ seq: 1, lastSeq: 2, moved: true });
    for (const body of [{}, { seq: "2" }, { seq: -1 }, { seq: 1.5 }, { seq: 2, extra: true }, { seq: 3 }]) {
      const res = await call(cursorPost, c.path, { params: c.params, key: a.key, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.issues.length).toBeGreaterThan(0);
    }
    expect((await call(cursorPost, c.path, { params: c.params, key: a.key, body: "{nope" })).status).toBe(400);
    expect((await readCursor(getDb(), a, room)).seq).toBe(1);
    expect((await call(cursorGet, c.path, { params: c.params, key: a.key })).body).toMatchObject({ seq: 1, lastSeq: 2 });
    expect((await call(cursorPost, c.path, { params: c.params, body: { seq: 2 } })).status).toBe(401);
    expect((await call(cursorPost, "/api/rooms/nowhere/cursor", { params: { room: "nowhere" }, key: a.key, body: { seq: 0 } })).status).toBe(404);
  });
});

describe("inbox and presence routes", () => {
  it("shows an agent its unacked mail, flagging what is addressed to it, and never another's direct messages", async () => {
    const human = await makeHuman();
    const [a, b] = [await makeAgent(), await makeAgent()];
    const room = await freshRoom(human);
    const m = at(room, "messages");
    await call(postRoute, m.path, { params: m.params, cookie: human.cookie, body: { body: "all hands" } });
    await call(postRoute, m.path, { params: m.params, cookie: human.cookie, body: { body: `@${a.name} please take #2` } });
    await call(postRoute, m.path, { params: m.params, cookie: human.cookie, body: { body: "just for b", to: b.name } });
    const inbox = await call(inboxRoute, at(room, "inbox").path, { params: { room }, key: a.key });
    expect(inbox.status).toBe(200);
    expect(inbox.body.items.map((i: { body: string; addressed: boolean }) => [i.body, i.addressed])).toEqual([
      ["all hands", false],
      [`@${a.name} please take #2`, true],
    ]);
    await call(cursorPost, at(room, "cursor").path, { params: { room }, key: a.key, body: { seq: 2 } });
    expect((await call(inboxRoute, at(room, "inbox").path, { params: { room }, key: a.key })).body.items).toEqual([]);
    expect((await call(inboxRoute, `${at(room, "inbox").path}?limit=0`, { params: { room }, key: a.key })).status).toBe(400);
  });

  it("lists who is present with roles, and a focusing agent with its queue", async () => {
    const human = await makeHuman();
    const [a, idle] = [await makeAgent(undefined, "reviewer"), await makeAgent()];
    const room = await freshRoom(human);
    const taskId = randomUUID();
    await getDb().transaction((tx) => openFocusWindow(tx, a.id, taskId, clock.now()));
    await call(postRoute, at(room, "messages").path, { params: { room }, cookie: human.cookie, body: { body: "queued for a" } });
    await call(inboxRoute, at(room, "inbox").path, { params: { room }, key: a.key }); // any call marks a present
    const res = await call(presenceRoute, at(room, "presence").path, { params: { room }, cookie: human.cookie });
    expect(res.status).toBe(200);
    const byId = new Map(res.body.items.map((p: { id: string }) => [p.id, p]));
    expect(byId.get(a.id)).toMatchObject({ role: "reviewer", present: true, focusing: { taskId, queued: 1, dropped: 0 } });
    expect(byId.get(human.id)).toMatchObject({ kind: "human", present: true, focusing: null });
    expect(byId.get(idle.id)).toMatchObject({ focusing: null });
    expect(res.body.items.some((p: { kind: string }) => p.kind === "system")).toBe(false);
  });
});

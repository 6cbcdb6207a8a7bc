// Posting and listing messages through the HTTP API: auth, validation, visibility, gap-free seq.
import { describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { systemClock } from "../clock";
const listRoomsRoute = apiHandler("GET", "/api/rooms");
const createRoomRoute = apiHandler("POST", "/api/rooms");
const listMessagesRoute = apiHandler("GET", "/api/rooms/[room]/messages");
const postMessageRoute = apiHandler("POST", "/api/rooms/[room]/messages");
import { call, makeAgent, makeHuman, uniqueName } from "../../test/helpers";
import { listMessages } from "./list-messages";
import { postMessage } from "./post-message";
import { ackAll } from "../../test/fixtures/room";
import { apiHandler } from "../../test/api";

const general = { params: { room: "general" } };

describe("rooms", () => {
  it("has a general room that every principal can list", async () => {
    const agent = await makeAgent();
    const res = await call(listRoomsRoute, "/api/rooms", { key: agent.key });
    expect(res.status).toBe(200);
    expect(res.body.items.map((r: { name: string }) => r.name)).toContain("general");
  });

  it("lets humans create rooms and refuses agents with 403", async () => {
    const human = await makeHuman();
    const agent = await makeAgent();
    const name = uniqueName("ops");
    const created = await call(createRoomRoute, "/api/rooms", { cookie: human.cookie, body: { name } });
    expect(created.status).toBe(201);
    expect(created.body.name).toBe(name);
    const again = await call(createRoomRoute, "/api/rooms", { cookie: human.cookie, body: { name } });
    expect(again.status).toBe(409);
    const byAgent = await call(createRoomRoute, "/api/rooms", { key: agent.key, body: { name: uniqueName("x") } });
    expect(byAgent.status).toBe(403);
    const bad = await call(createRoomRoute, "/api/rooms", { cookie: human.cookie, body: { name: "Not A Name!" } });
    expect(bad.status).toBe(400);
    expect(bad.body.issues[0].path).toEqual(["name"]);
  });
});

describe("messages over HTTP", () => {
  it("requires credentials (401) and refuses an unknown key (401)", async () => {
    expect((await call(listMessagesRoute, "/api/rooms/general/messages", general)).status).toBe(401);
    const res = await call(postMessageRoute, "/api/rooms/general/messages", { ...general, key: "qk_nope", body: { body: "hi" } });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("unauthorized");
  });

  it("posts a message, returns it with its seq, and lists it", async () => {
    const agent = await makeAgent();
    const posted = await call(postMessageRoute, "/api/rooms/general/messages", {
      ...general,
      key: agent.key,
      body: { body: "claiming the parser task", performative: "INFORM" },
    });
    expect(posted.status).toBe(201);
    expect(posted.body).toMatchObject({ room: "general", senderId: agent.id, body: "claiming the parser task", performative: "INFORM" });
    expect(posted.body.seq).toBeGreaterThan(0);
    const listed = await call(listMessagesRoute, `/api/rooms/general/messages?after=${posted.body.seq - 1}`, { ...general, key: agent.key });
    expect(listed.status).toBe(200);
    expect(listed.body.items[0]).toMatchObject({ id: posted.body.id, seq: posted.body.seq });
  });

  it("answers bad bodies with 400 and the zod issues, and stores nothing", async () => {
    const agent = await makeAgent();
    const cases: unknown[] = [
      {},
      { body: "" },
      { body: 42 },
      { body: "x", performative: "SHOUT" },
      { body: "x", extra: true },
      { body: "x".repeat(16 * 1024 + 1) },
      { body: "a NUL \u0000 byte" },
      { body: "a lone \ud800 surrogate" },
      "{not json",
    ];
    const before = await listMessages(getDb(), agent, "general", {});
    for (const body of cases) {
      const res = await call(postMessageRoute, "/api/rooms/general/messages", { ...general, key: agent.key, body });
      expect(res.status, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect(res.body.error).toBe("invalid");
    }
    const after = await listMessages(getDb(), agent, "general", {});
    expect(after.items.length).toBe(before.items.length);
  });

  it("answers 404 for an unknown room and an unknown recipient", async () => {
    const agent = await makeAgent();
    const room = await call(postMessageRoute, "/api/rooms/nowhere/messages", { params: { room: "nowhere" }, key: agent.key, body: { body: "hi" } });
    expect(room.status).toBe(404);
    const list = await call(listMessagesRoute, "/api/rooms/nowhere/messages", { params: { room: "nowhere" }, key: agent.key });
    expect(list.status).toBe(404);
    const to = await call(postMessageRoute, "/api/rooms/general/messages", { ...general, key: agent.key, body: { body: "hi", to: "ghost" } });
    expect(to.status).toBe(404);
  });

  it("refuses a cookie-signed POST from another site or without JSON (403)", async () => {
    const human = await makeHuman();
    const foreign = await call(postMessageRoute, "/api/rooms/general/messages", {
      ...general,
      cookie: human.cookie,
      body: { body: "hi" },
      headers: { origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
    const form = await call(postMessageRoute, "/api/rooms/general/messages", {
      ...general,
      cookie: human.cookie,
      body: "body=hi",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(403);
    const same = await call(postMessageRoute, "/api/rooms/general/messages", {
      ...general,
      cookie: human.cookie,
      body: { body: "hi from the browser" },
      headers: { origin: "http://localhost" },
    });
    expect(same.status).toBe(201);
    expect(same.body.senderKind).toBe("human");
  });
});

describe("postMessage", () => {
  it("stores @mentions and keeps direct messages between their two ends (and humans)", async () => {
    const db = getDb();
    const alice = await makeAgent();
    const bob = await makeAgent();
    const carol = await makeAgent();
    const human = await makeHuman();
    await ackAll(alice, "general", systemClock); // the freshness gate: an agent acks before it broadcasts
    const mention = await postMessage(db, alice, "general", { body: `@${bob.name}. can you look?` }, systemClock);
    expect(mention.mentions).toEqual([bob.id]);
    const direct = await postMessage(db, alice, "general", { body: "just between us", to: bob.name }, systemClock);
    expect(direct.to).toBe(bob.id);
    const seenBy = async (p: typeof alice | typeof human) => (await listMessages(db, p, "general", { after: direct.seq - 1 })).items.map((m) => m.id);
    expect(await seenBy(bob)).toContain(direct.id);
    expect(await seenBy(alice)).toContain(direct.id);
    expect(await seenBy(human)).toContain(direct.id);
    expect(await seenBy(carol)).not.toContain(direct.id);
  });

  it("gives 8 concurrent posters gap-free, unique seqs", async () => {
    const db = getDb();
    const posters = await Promise.all(Array.from({ length: 8 }, () => makeHuman()));
    const start = (await listMessages(db, posters[0], "general", {})).items.at(-1)?.seq ?? 0;
    const posted = await Promise.all(posters.flatMap((p, i) => Array.from({ length: 10 }, (_, j) => postMessage(db, p, "general", { body: `m ${i}.${j}` }, systemClock))));
    const seqs = posted.map((m) => m.seq).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: 80 }, (_, i) => start + 1 + i));
  });
});

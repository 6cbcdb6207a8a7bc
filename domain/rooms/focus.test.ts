// Focus windows and digests: what is held, what passes, the cap of 50, and the flush as one batch.
import { randomUUID } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { events } from "../../db/schema";
import { getDb } from "../../db/client";
import { manualClock } from "../clock";
import { getSystemPrincipal } from "../principals/create-principal";
import { claimTask } from "../tasks/claim";
import { createTask } from "../tasks/create";
const digestRoute = apiHandler("GET", "/api/agents/[id]/digest");
const flushRoute = apiHandler("POST", "/api/agents/[id]/digest");
const inboxRoute = apiHandler("GET", "/api/rooms/[room]/inbox");
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { readDigest } from "./digest";
import { closeFocusWindow, openFocusWindow, openWindowOf } from "./focus";
import { readInbox } from "./inbox";
import { sweepRelay } from "./sweep";
import { ackAll, freshRoom, tryPost } from "../../test/fixtures/room";
import { apiHandler } from "../../test/api";

async function focus(agentId: string, clock: { now(): Date }, taskId = randomUUID()) {
  await getDb().transaction((tx) => openFocusWindow(tx, agentId, taskId, clock.now()));
  return taskId;
}

async function lastEvent(kind: "DigestFlushed" | "FocusWindowClosed" | "MessageDelivered", actor: string) {
  const [row] = await getDb()
    .select()
    .from(events)
    .where(and(eq(events.kind, kind), eq(events.actor, actor)))
    .orderBy(desc(events.id))
    .limit(1);
  return row?.data as Record<string, unknown> | undefined;
}

const bodies = (page: { items: { body: string }[] }) => page.items.map((m) => m.body);

describe("focus window", () => {
  it("holds broadcasts and plain direct messages; an @mention and a critical-path nudge get through", async () => {
    const clock = manualClock();
    const human = await makeHuman();
    const [focused, other, speaker] = [await makeAgent(), await makeAgent(), await makeAgent()];
    const room = await freshRoom(human);
    await focus(focused.id, clock);
    await tryPost(human, room, "status, anyone?", clock);
    await ackAll(speaker, room, clock);
    await tryPost(speaker, room, { body: "ping, direct", to: focused.name }, clock);
    await tryPost(speaker, room, `@${focused.name} the build broke on your branch`, clock);
    const system = await getSystemPrincipal(getDb());
    await tryPost(system, room, { body: "commitment overdue: you block #3", to: focused.name }, clock, { nudge: true });

    expect(bodies(await readInbox(getDb(), focused, room))).toEqual([`@${focused.name} the build broke on your branch`, "commitment overdue: you block #3"]);
    expect((await readDigest(getDb(), focused.id)).items.map((m) => m.body)).toEqual(["status, anyone?", "ping, direct"]);
    // Someone who is not focusing gets every broadcast at once.
    expect(bodies(await readInbox(getDb(), other, room))).toEqual(["status, anyone?", `@${focused.name} the build broke on your branch`]);
    const delivered = await lastEvent("MessageDelivered", speaker.id);
    expect(delivered).toMatchObject({ via: "inbox", room });
    expect(delivered?.recipients).toContain(focused.id);
  });

  it("keeps at most 50, dropping the oldest and counting them, and flushes them as one batch when the task changes status", async () => {
    const clock = manualClock();
    const human = await makeHuman();
    const agent = await makeAgent();
    const room = await freshRoom(human);
    const taskId = await focus(agent.id, clock);
    for (let i = 1; i <= 55; i++) await tryPost(human, room, `update ${i}`, clock);
    const digest = await readDigest(getDb(), agent.id);
    expect(digest).toMatchObject({ focusing: true, taskId, dropped: 5 });
    expect(digest.items.map((m) => m.body)).toEqual(Array.from({ length: 50 }, (_, i) => `update ${i + 6}`));
    expect((await readInbox(getDb(), agent, room)).items).toEqual([]);

    await getDb().transaction((tx) => closeFocusWindow(tx, agent.id, clock.now()));
    const flushed = await lastEvent("DigestFlushed", agent.id);
    expect(flushed).toMatchObject({ agentId: agent.id, taskId, count: 50, dropped: 5, rooms: [room] });
    expect(flushed?.messageIds).toEqual(digest.items.map((m) => m.id));
    expect(await lastEvent("FocusWindowClosed", agent.id)).toMatchObject({ delivered: 50, dropped: 5 });
    // The batch is now the agent's mail; the five dropped ones stay dropped.
    expect(bodies(await readInbox(getDb(), agent, room))).toEqual(digest.items.map((m) => m.body));
    expect(await readDigest(getDb(), agent.id)).toMatchObject({ focusing: false, items: [], dropped: 0 });
    // Closing again is a no-op.
    await getDb().transaction((tx) => closeFocusWindow(tx, agent.id, clock.now()));
    expect((await lastEvent("DigestFlushed", agent.id))?.messageIds).toEqual(flushed?.messageIds);
  });

  it("serves the digest to the agent and to humans over HTTP, and flushes it on request", async () => {
    const clock = manualClock();
    const human = await makeHuman();
    const [agent, stranger] = [await makeAgent(), await makeAgent()];
    const room = await freshRoom(human);
    await focus(agent.id, clock);
    await tryPost(human, room, "<b>heads up</b>", clock);
    const path = `/api/agents/${agent.id}/digest`;
    const params = { params: { id: agent.id } };
    const mine = await call(digestRoute, path, { ...params, key: agent.key });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ focusing: true, items: [{ body: "<b>heads up</b>", senderName: human.name }] });
    expect((await call(digestRoute, path, { ...params, cookie: human.cookie })).status).toBe(200);
    expect((await call(digestRoute, path, { ...params, key: stranger.key })).status).toBe(403);
    expect((await call(digestRoute, "/api/agents/nope/digest", { params: { id: "nope" }, key: agent.key })).status).toBe(404);
    expect((await call(flushRoute, path, { ...params, key: agent.key, body: { extra: 1 } })).status).toBe(400);

    const inboxPath = `/api/rooms/${room}/inbox`;
    expect((await call(inboxRoute, inboxPath, { params: { room }, key: agent.key })).body.items).toEqual([]);
    const flushed = await call(flushRoute, path, { ...params, key: agent.key, body: {} });
    expect(flushed.status).toBe(200);
    expect(flushed.body.flushed).toHaveLength(1);
    const inbox = await call(inboxRoute, inboxPath, { params: { room }, key: agent.key });
    expect(inbox.body.items.map((m: { body: string }) => m.body)).toEqual(["<b>heads up</b>"]);
    // The window stays open: the next broadcast is held again.
    await tryPost(human, room, "and another thing", clock);
    expect((await readDigest(getDb(), agent.id)).items.map((m) => m.body)).toEqual(["and another thing"]);
  });

  it("opens from the board's claim and is closed by the 30-second sweep once the lease is over", async () => {
    const clock = manualClock(new Date());
    const human = await makeHuman();
    const agent = await makeAgent();
    const room = await freshRoom(human);
    const task = await createTask(getDb(), human, { title: "Fix parse('')", acceptanceCriteria: "the test passes", leaseMinutes: 5 }, clock);
    await claimTask(getDb(), agent, task.id, clock);
    expect((await openWindowOf(getDb(), agent.id))?.taskId).toBe(task.id);
    await tryPost(human, room, "while you work", clock);
    clock.advance(4 * 60_000);
    await sweepRelay(getDb(), clock);
    expect((await readDigest(getDb(), agent.id)).items).toHaveLength(1);
    clock.advance(60_000);
    expect((await sweepRelay(getDb(), clock)).windowsClosed).toBeGreaterThanOrEqual(1);
    expect(await openWindowOf(getDb(), agent.id)).toBeUndefined();
    expect(await lastEvent("DigestFlushed", agent.id)).toMatchObject({ reason: "window_over", count: 1 });
    expect(bodies(await readInbox(getDb(), agent, room))).toEqual(["while you work"]);
  });

  it("never focuses a human, and opening twice for one task changes nothing", async () => {
    const clock = manualClock();
    const human = await makeHuman();
    const agent = await makeAgent();
    await focus(human.id, clock);
    expect(await openWindowOf(getDb(), human.id)).toBeUndefined();
    const taskId = await focus(agent.id, clock);
    const first = await openWindowOf(getDb(), agent.id);
    await focus(agent.id, clock, taskId);
    expect(await openWindowOf(getDb(), agent.id)).toEqual(first);
  });
});

// The journal is append-only, journals every state change, and pages without loss.
import { describe, expect, it } from "vitest";
import { getConnection, getDb } from "../../db/client";
import { systemClock } from "../clock";
const journalRoute = apiHandler("GET", "/api/journal");
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { postMessage } from "../rooms/post-message";
import { appendEvent } from "./append";
import { listJournal } from "./list";
import { subscribeToEvents, type EventNotice } from "./listen";
import { ackAll } from "../../test/fixtures/room";
import { apiHandler } from "../../test/api";

describe("journal", () => {
  it("refuses UPDATE, DELETE and TRUNCATE on events", async () => {
    const { sql } = getConnection();
    await appendEvent(getDb(), { kind: "RoomCreated", t: new Date(), data: { room: "x" } });
    await expect(sql`update events set kind = 'Forged'`).rejects.toThrow(/append-only/);
    await expect(sql`delete from events`).rejects.toThrow(/append-only/);
    await expect(sql`truncate events`).rejects.toThrow(/append-only/);
  });

  it("appends MessageSent in the same transaction as the message", async () => {
    const agent = await makeAgent();
    const message = await postMessage(getDb(), agent, "general", { body: "journalled" }, systemClock);
    const { items } = await listJournal(getDb(), { kind: "MessageSent", actor: agent.id });
    expect(items).toHaveLength(1);
    expect(items[0].data).toMatchObject({ room: "general", seq: message.seq, messageId: message.id, body: "journalled" });
  });

  it("filters by kind and actor over HTTP and pages newest first without repeats", async () => {
    const human = await makeHuman();
    for (let i = 0; i < 7; i++) await postMessage(getDb(), human, "general", { body: `page ${i}` }, systemClock);
    const seen: number[] = [];
    let before: number | undefined;
    for (;;) {
      const res = await call(journalRoute, `/api/journal?actor=${human.id}&kind=MessageSent&limit=3${before ? `&before=${before}` : ""}`, {
        cookie: human.cookie,
      });
      expect(res.status).toBe(200);
      seen.push(...res.body.items.map((e: { id: number }) => e.id));
      if (!res.body.next) break;
      before = res.body.next;
    }
    expect(seen).toHaveLength(7);
    expect([...seen].sort((a, b) => b - a)).toEqual(seen);
    const bad = await call(journalRoute, "/api/journal?actor=not-a-uuid", { cookie: human.cookie });
    expect(bad.status).toBe(400);
    expect((await call(journalRoute, "/api/journal")).status).toBe(401);
  });

  it("notifies listeners of each committed event, and never of a rolled-back one", async () => {
    const agent = await makeAgent();
    const notices: EventNotice[] = [];
    const unsubscribe = await subscribeToEvents(getConnection().sql, (n) => notices.push(n));
    await getDb()
      .transaction(async (tx) => {
        await appendEvent(tx, { kind: "RoomCreated", actor: agent.id, t: new Date(), data: { room: "rolled-back" } });
        throw new Error("abort");
      })
      .catch(() => {});
    await ackAll(agent, "general", systemClock); // the freshness gate: an agent acks before it broadcasts
    const message = await postMessage(getDb(), agent, "general", { body: "notify me" }, systemClock);
    await expect.poll(() => notices.some((n) => n.kind === "MessageSent" && n.room === "general")).toBe(true);
    expect(notices.some((n) => n.room === "rolled-back")).toBe(false);
    unsubscribe();
    expect(message.seq).toBeGreaterThan(0);
  });
});

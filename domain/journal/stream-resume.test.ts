// A stream is one sequence in commit-safe order, so the last id a client saw is a place it can resume from
// on any instance: nothing that commits late is lost across the reconnect.
import { afterEach, describe, expect, it } from "vitest";
import { getConnection } from "../../db/client";
import { openTransaction } from "../../test/fixtures/open-transaction";
import { makeAgent, makeHuman } from "../../test/helpers";
import type { Principal } from "../principal";
import { serverContext } from "../context";
import type { EventNotice, Subscribe } from "./listen";
import { openEventStream } from "./stream";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Opens `viewer`'s stream after `after` and collects the ids of its journal frames, in order. */
function follow(viewer: Principal, after: number | null, subscribe: Subscribe = serverContext().subscribe) {
  const abort = new AbortController();
  const ids: number[] = [];
  const stream = openEventStream({ db: serverContext().db, subscribe }, viewer, { after, signal: abort.signal, stillAuthenticated: async () => true });
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        text += decoder.decode(value, { stream: true });
        for (let end = text.indexOf("\n\n"); end >= 0; end = text.indexOf("\n\n")) {
          const id = /^id: (\d+)$/m.exec(text.slice(0, end));
          if (id) ids.push(Number(id[1]));
          text = text.slice(end + 2);
        }
      }
    } catch {
      // hung up
    }
  })();
  const hangUp = () => {
    abort.abort();
    void reader.cancel().catch(() => {});
  };
  cleanups.push(hangUp);
  return { ids, hangUp };
}

async function journalHead(): Promise<number> {
  const [row] = await getConnection().sql<{ id: string }[]>`select coalesce(max(id), 0)::text as id from events`;
  return Number(row.id);
}

describe("resuming a stream with Last-Event-ID", () => {
  for (const kind of ["human", "agent"] as const) {
    it(`loses no event of an older transaction that commits after a newer one (${kind})`, async () => {
      const viewer: Principal = kind === "human" ? await makeHuman() : await makeAgent();
      // Another instance's streams keep the announcer reading, so it announces the late commit before the
      // client is back: the reconnect must find it in the journal, behind the client's last id.
      const keepReading = await serverContext().subscribe(() => {});
      cleanups.push(keepReading);
      const head = await journalHead();
      const older = await openTransaction();
      cleanups.push(older.cleanup);
      const olderId = await older.append("resume-older");
      const [newer] = await getConnection().sql<{ id: string }[]>`insert into events (kind, data) values ('RoomCreated', '{"room":"resume-newer"}') returning id`;
      const newerId = Number(newer.id);
      expect(newerId).toBeGreaterThan(olderId);

      const first = follow(viewer, head);
      await sleep(400);
      first.hangUp();
      await older.commit();
      await sleep(400); // the announcer hears the late commit while the client is away

      const resumeFrom = first.ids.at(-1) ?? head;
      const second = follow(viewer, resumeFrom);
      await expect.poll(() => [...first.ids, ...second.ids].filter((id) => id === olderId || id === newerId).sort((a, b) => a - b), { timeout: 5_000 }).toEqual([olderId, newerId]);
    });
  }

  it("sends the catch-up before any live event, in commit-safe order", async () => {
    const viewer = await makeHuman();
    const head = await journalHead();
    const older = await openTransaction();
    cleanups.push(older.cleanup);
    await older.takeXid();
    const [newer] = await getConnection().sql<{ id: string }[]>`insert into events (kind, data) values ('RoomCreated', '{"room":"order-newer"}') returning id`;
    const olderId = await older.append("order-older");
    await older.commit();
    const [live] = await getConnection().sql<{ id: string }[]>`insert into events (kind, data) values ('RoomCreated', '{"room":"order-live"}') returning id`;
    const stream = follow(viewer, head);
    const mine = () => stream.ids.filter((id) => [olderId, Number(newer.id), Number(live.id)].includes(id));
    // The older transaction's event has the larger id but comes first; each once.
    await expect.poll(mine, { timeout: 5_000 }).toEqual([olderId, Number(newer.id), Number(live.id)]);
  });

  it("does not send again what the catch-up sent when this process's announcer announces it later", async () => {
    const viewer = await makeHuman();
    const head = await journalHead();
    const [caught] = await getConnection().sql<{ id: string }[]>`insert into events (kind, data) values ('RoomCreated', '{"room":"behind-caught"}') returning id`;
    // An announcer standing behind the journal: it hears nothing until told, then the caught-up event, then a new one.
    let announce: (notice: EventNotice) => void = () => {};
    const behind: Subscribe = async (subscriber) => {
      announce = subscriber;
      return () => {};
    };
    const stream = follow(viewer, head, behind);
    await expect.poll(() => stream.ids.includes(Number(caught.id)), { timeout: 5_000 }).toBe(true);
    const notice = (id: number, room: string): EventNotice => ({ id, kind: "RoomCreated", actor: null, taskId: null, runId: null, room });
    announce(notice(Number(caught.id), "behind-caught"));
    const [later] = await getConnection().sql<{ id: string }[]>`insert into events (kind, data) values ('RoomCreated', '{"room":"behind-later"}') returning id`;
    announce(notice(Number(later.id), "behind-later"));
    announce(notice(Number(caught.id), "behind-caught")); // past the catch-up's end, an id is the announcer's to send
    await expect.poll(() => stream.ids.filter((id) => id >= Number(caught.id)), { timeout: 5_000 }).toEqual([Number(caught.id), Number(later.id), Number(caught.id)]);
  });
});

// The announcer reads the journal's tail commit-safely: an event whose transaction is still in flight
// holds back the ones after it in commit-safe order, and nothing that commits late is passed over.
import { afterEach, describe, expect, it } from "vitest";
import { getConnection } from "../../db/client";
import { startAnnouncer } from "./announcer";
import { type EventNotice, subscribeToEvents } from "./listen";
import { openTransaction as openFixture } from "../../test/fixtures/open-transaction";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A transaction held open until `commit` or `rollback`, rolled back after the test if the test did neither. */
async function openTransaction() {
  const tx = await openFixture();
  cleanups.push(tx.cleanup);
  return tx;
}

describe("the journal announcer", () => {
  it("holds back a later id committed first until the earlier one commits, then announces both in commit-safe order", async () => {
    const heard: EventNotice[] = [];
    const unsubscribe = await subscribeToEvents(getConnection().sql, (n) => heard.push(n));
    cleanups.push(unsubscribe);
    const earlier = await openTransaction();
    const later = await openTransaction();
    const earlierId = await earlier.append("commit-safety-earlier");
    const laterId = await later.append("commit-safety-later");
    expect(laterId).toBeGreaterThan(earlierId);
    await later.commit();
    // Several polls pass (the idle pace is at most 250 ms): the later event waits for the earlier one.
    await sleep(600);
    expect(heard.filter((n) => n.id === earlierId || n.id === laterId)).toEqual([]);
    await earlier.commit();
    await expect.poll(() => heard.filter((n) => n.id === earlierId || n.id === laterId).map((n) => n.id)).toEqual([earlierId, laterId]);
    expect(heard.find((n) => n.id === laterId)).toMatchObject({ kind: "RoomCreated", room: "commit-safety-later", actor: null });
  });

  it("announces a lower id that commits after a higher one exactly once, and never a rolled-back one", async () => {
    const heard: EventNotice[] = [];
    const unsubscribe = await subscribeToEvents(getConnection().sql, (n) => heard.push(n));
    cleanups.push(unsubscribe);
    // `first` takes its transaction id before `second` but writes after it: the larger event id, the older
    // transaction. It commits first and is announced at once; `second`, still in flight, is not passed over.
    const first = await openTransaction();
    await first.takeXid();
    const second = await openTransaction();
    const doomed = await openTransaction();
    const secondId = await second.append("late-second");
    const doomedId = await doomed.append("late-doomed");
    const firstId = await first.append("late-first");
    expect(firstId).toBeGreaterThan(secondId);
    await first.commit();
    await expect.poll(() => heard.map((n) => n.id)).toContain(firstId);
    await doomed.rollback();
    await second.commit();
    await expect.poll(() => heard.map((n) => n.id)).toContain(secondId);
    await sleep(400);
    const ids = heard.map((n) => n.id);
    expect(ids.filter((id) => id === firstId)).toHaveLength(1);
    expect(ids.filter((id) => id === secondId)).toHaveLength(1);
    expect(ids).not.toContain(doomedId);
  });

  it("tells of a gap when it falls behind, and goes on from the tail", async () => {
    const { sql } = getConnection();
    const batches: number[][] = [];
    let gaps = 0;
    const announcer = startAnnouncer(
      sql,
      (notices) => batches.push(notices.map((n) => n.id)),
      () => gaps++,
      { busyMs: 10, hotMs: 100, idleMs: 50, backoff: 1.5, pageSize: 2, maxPages: 2, stuckMs: 9_000 },
    );
    cleanups.push(() => announcer.stop());
    await announcer.ready;
    // Ten events in one commit: more than two pages of two.
    await sql`insert into events (kind, data) select 'RoomCreated', jsonb_build_object('room', 'behind-' || i) from generate_series(1, 10) i`;
    await expect.poll(() => gaps).toBe(1);
    expect(batches.flat()).toHaveLength(4);
    const [row] = await sql<{ id: string }[]>`insert into events (kind, data) values ('RoomCreated', '{"room":"after-the-gap"}') returning id`;
    await expect.poll(() => batches.flat()).toContain(Number(row.id));
  });
});

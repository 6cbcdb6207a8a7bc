// The lease sweeper: expiry back to ready, the old holder told, scored reassignment, one sweeper at a time.
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { events, focusWindows, messages } from "../../db/schema";
import { getConnection, getDb } from "../../db/client";
import { manualClock } from "../clock";
import { getSystemPrincipal } from "../principals/create-principal";
import type { Principal } from "../principal";
import { makeAgent } from "../../test/helpers";
import { appendOutput } from "./append-output";
import { claimTask } from "./claim";
import { claimNextTask } from "./claim-next";
import { sweepExpiredLeases } from "./expire";
import { heartbeat } from "./heartbeat";
import { rankCandidates } from "./reassign";
import { reviewTask } from "./review";
import { submitTask } from "./submit";
import { makeReadyTask, makeTeam, markPresent, taskEventKinds } from "../../test/fixtures/board";
import { readTaskView } from "./view";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/**
 * Each test lives on its own later day: agents made present by earlier tests are long gone, and
 * whatever they left in progress has expired and is swept before the test starts.
 */
let epoch = Date.now();
async function laterClock() {
  epoch += 10 * DAY;
  const clock = manualClock(new Date(epoch));
  await sweepExpiredLeases(getDb(), clock);
  return clock;
}

async function directMessages(taskId: string) {
  return getDb().select().from(messages).where(eq(messages.taskId, taskId)).orderBy(messages.seq);
}

/** Gives an agent a review record: `accepted` of `reviewed` tasks accepted by `lead`. */
async function giveRecord(lead: Principal, agent: Principal, accepted: number, reviewed: number, clock: ReturnType<typeof manualClock>) {
  const db = getDb();
  for (let i = 0; i < reviewed; i++) {
    const task = await makeReadyTask(lead, { title: `record ${i}` }, clock);
    await claimTask(db, agent, task.id, clock);
    await submitTask(db, agent, task.id, { fence: 1, summary: "s", evidence: "e" }, clock);
    await reviewTask(db, lead, task.id, i < accepted ? { verdict: "accept" } : { verdict: "reject", reason: "no" }, clock);
    if (i >= accepted) await submitTask(db, agent, task.id, { fence: 1, summary: "s2", evidence: "e2" }, clock);
  }
}

describe("sweepExpiredLeases", () => {
  it("returns an expired task to ready, tells the old holder, offers it, and refuses the old holder's late writes", async () => {
    const db = getDb();
    const clock = await laterClock();
    const {
      lead,
      workers: [ada, bo],
    } = await makeTeam(2);
    const task = await makeReadyTask(lead, {}, clock);
    await claimTask(db, ada, task.id, clock);
    await appendOutput(db, ada, task.id, { fence: 1, items: ["one", "two"] }, clock);

    clock.advance(29 * MINUTE);
    expect((await sweepExpiredLeases(db, clock)).expired).toEqual([]);
    await heartbeat(db, ada, task.id, { fence: 1 }, clock);
    clock.advance(29 * MINUTE);
    expect((await sweepExpiredLeases(db, clock)).expired).toEqual([]);

    clock.advance(2 * MINUTE);
    await markPresent(clock, bo);
    const result = await sweepExpiredLeases(db, clock);
    expect(result.unannounced).toBeUndefined();
    expect(result.expired).toEqual([
      expect.objectContaining({ taskId: task.id, previousOwnerId: ada.id, fence: 1, outputCount: 2, offeredTo: expect.objectContaining({ id: bo.id }) }),
    ]);
    expect(await readTaskView(db, task.id)).toMatchObject({ status: "ready", ownerId: null, leaseExpiresAt: null, fence: 1, outputCount: 2, offeredTo: bo.id });
    expect(await taskEventKinds(task.id)).toEqual(expect.arrayContaining(["LeaseExpired", "FocusWindowClosed", "TaskOffered", "MessageSent"]));
    const [window] = await db.select().from(focusWindows).where(eq(focusWindows.agentId, ada.id));
    expect(window.closedAt).not.toBeNull();

    const system = await getSystemPrincipal(db);
    const sent = await directMessages(task.id);
    expect(sent.map((m) => [m.senderId, m.toId, m.performative])).toEqual([
      [system.id, ada.id, "INFORM"],
      [system.id, bo.id, "REQUEST"],
    ]);
    expect(sent[1].body).toMatch(new RegExp(`#${task.number}`));
    // The former holder hears that it lost the lease, to whom the task went, and that late writes are refused.
    expect(sent[0].body).toBe(
      `Your lease on task #${task.number} “${task.title}” expired and the task was reassigned: it is back in ready with 2 output items, offered to ${bo.name}. Your late writes with fence 1 will be refused.`,
    );

    // Before anyone claims it, the old holder's fence holds no lease; after, it is below the new one.
    await expect(appendOutput(db, ada, task.id, { fence: 1, items: ["late"] }, clock)).rejects.toMatchObject({ code: "stale_fence" });
    const resumed = await claimNextTask(db, bo, clock);
    expect(resumed).toMatchObject({ id: task.id, fence: 2, outputCount: 2 });
    await expect(appendOutput(db, ada, task.id, { fence: 1, items: ["late"] }, clock)).rejects.toMatchObject({ code: "stale_fence" });
    await appendOutput(db, bo, task.id, { fence: 2, items: ["three"] }, clock);
    expect((await readTaskView(db, task.id)).outputCount).toBe(3);
  });

  it("offers the task by score: presence − load×10 + success rate×10, ties by name, never to the approver or the old holder", async () => {
    const db = getDb();
    const clock = await laterClock();
    const { lead } = await makeTeam(0);
    const [holder, rookie, star, busy, away, approver] = await Promise.all(
      ["holder", "rookie", "star", "busy", "away", "approver"].map((n) => makeAgent(`${n}-${epoch.toString(36)}`)),
    );
    await giveRecord(lead, star, 2, 3, clock); // 2/3 accepted → 1 + 6.67 = 7.67
    await giveRecord(lead, busy, 1, 1, clock); // 1/1 but one task in progress → 1 − 10 + 10 = 1
    await claimTask(db, busy, (await makeReadyTask(lead, { leaseMinutes: 120 }, clock)).id, clock);
    await giveRecord(lead, approver, 1, 1, clock); // would score 11, but approves the task
    await giveRecord(lead, away, 1, 1, clock); // would score 11, but is not present
    const task = await makeReadyTask(lead, { approverId: approver.id }, clock);
    await claimTask(db, holder, task.id, clock);

    clock.advance(31 * MINUTE);
    await markPresent(clock, holder, rookie, star, busy, approver);
    const { expired } = await sweepExpiredLeases(db, clock);
    expect(expired.map((e) => [e.taskId, e.offeredTo?.id])).toEqual([[task.id, star.id]]);
    const [offer] = await db
      .select()
      .from(events)
      .where(and(eq(events.taskId, task.id), eq(events.kind, "TaskOffered")));
    const ranking = (offer.data as { ranking: { name: string; score: number }[] }).ranking;
    expect(ranking.map((r) => r.name)).toEqual([star.name, ...[busy.name, rookie.name].sort()]);
    expect(ranking[0].score).toBeCloseTo(1 + (2 / 3) * 10);
    expect(ranking.find((r) => r.name === busy.name)?.score).toBe(1);
    expect(ranking.find((r) => r.name === rookie.name)?.score).toBe(1);
  });

  it("ranks ties by name and spreads one sweep's offers by counting them as load", async () => {
    expect(
      rankCandidates([
        { id: "2", name: "zed", present: true, load: 0, accepted: 0, reviewed: 0 },
        { id: "1", name: "amy", present: true, load: 0, accepted: 0, reviewed: 0 },
        { id: "3", name: "max", present: true, load: 0, accepted: 1, reviewed: 2 },
        { id: "4", name: "old", present: false, load: 0, accepted: 0, reviewed: 0 },
      ]).map((c) => [c.name, c.score]),
    ).toEqual([
      ["max", 6],
      ["amy", 1],
      ["zed", 1],
      ["old", 0],
    ]);

    const db = getDb();
    const clock = await laterClock();
    const {
      lead,
      workers: [holder, amy, zed],
    } = await makeTeam(3);
    for (let i = 0; i < 2; i++) await claimTask(db, holder, (await makeReadyTask(lead, { title: `t${i}` }, clock)).id, clock);
    clock.advance(31 * MINUTE);
    await markPresent(clock, amy, zed);
    const offered = (await sweepExpiredLeases(db, clock)).expired.map((e) => e.offeredTo?.id);
    expect(new Set(offered)).toEqual(new Set([amy.id, zed.id]));
  });

  it("runs one sweeper at a time: a held advisory lock makes a sweep touch nothing, and racing sweeps expire each lease once", async () => {
    const db = getDb();
    const clock = await laterClock();
    const {
      lead,
      workers: [ada],
    } = await makeTeam(1);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const task = await makeReadyTask(lead, { title: `race ${i}` }, clock);
      await claimTask(db, ada, task.id, clock);
      ids.push(task.id);
    }
    clock.advance(31 * MINUTE);
    const other = await getConnection().sql.reserve();
    try {
      await other`select pg_advisory_lock(hashtext('quorum:lease-sweep'))`;
      expect(await sweepExpiredLeases(db, clock)).toEqual({ swept: false, expired: [] });
      expect((await readTaskView(db, ids[0])).status).toBe("in_progress");
      await other`select pg_advisory_unlock(hashtext('quorum:lease-sweep'))`;
    } finally {
      other.release();
    }
    const results = await Promise.all([sweepExpiredLeases(db, clock), sweepExpiredLeases(db, clock), sweepExpiredLeases(db, clock)]);
    expect(results.flatMap((r) => r.expired.map((e) => e.taskId)).sort()).toEqual([...ids].sort());
    for (const id of ids) expect((await taskEventKinds(id)).filter((k) => k === "LeaseExpired")).toHaveLength(1);
  });
});

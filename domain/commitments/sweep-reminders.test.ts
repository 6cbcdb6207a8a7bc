// Reminders: only overdue blockers on the critical path, a direct nudge, at most once per edge per 45 minutes.
import { afterEach, describe, expect, it } from "vitest";
import { getConnection, getDb } from "../../db/client";
import { manualClock } from "../clock";
import { listJournal } from "../journal/list";
import type { Principal } from "../principal";
import { makeAgent } from "../../test/helpers";
import { addDependency } from "./add-dependency";
import { confirmCommitment } from "./confirm";
import { fulfilCommitment } from "./fulfil";
import { proposeCommitment } from "./propose";
import { REMINDER_SWEEP_LOCK, sweepReminders } from "./sweep-reminders";

const MINUTE = 60_000;

async function remindersTo(owner: Principal) {
  const { items } = await listJournal(getDb(), { kind: "MessageSent", limit: 500 });
  return items.filter((e) => (e.data as { to?: string }).to === owner.id);
}

describe("sweepReminders", () => {
  // Tests share one database: finish every confirmed commitment left behind by a test.
  afterEach(async () => {
    await getConnection().sql`update commitments set status = 'withdrawn', reason = 'test over', finished_at = now() where status = 'confirmed'`;
  });

  async function chain(clock: ReturnType<typeof manualClock>, steps: { owner: Principal; what: string; dueInMinutes: number }[]) {
    const ids: string[] = [];
    for (const step of steps) {
      const c = await proposeCommitment(getDb(), step.owner, { what: step.what, dueAt: new Date(clock.now().getTime() + step.dueInMinutes * MINUTE).toISOString() }, clock);
      await confirmCommitment(getDb(), step.owner, c.id, clock);
      if (ids.length) await addDependency(getDb(), step.owner, c.id, { blockerId: ids[ids.length - 1] }, clock);
      ids.push(c.id);
    }
    return ids;
  }

  it("nudges the owner of an overdue blocker on the critical path, directly, once per 45 minutes per edge", async () => {
    const clock = manualClock();
    const [alice, bob, carol] = await Promise.all([makeAgent(), makeAgent(), makeAgent()]);
    const [schema, api] = await chain(clock, [
      { owner: alice, what: "schema", dueInMinutes: 10 },
      { owner: bob, what: "api", dueInMinutes: 60 },
      { owner: carol, what: "ui", dueInMinutes: 120 },
    ]);
    expect(await sweepReminders(getDb(), clock)).toEqual({ ran: true, reminded: 0 });
    clock.advance(10 * MINUTE);
    expect(await sweepReminders(getDb(), clock)).toEqual({ ran: true, reminded: 1 });
    const [nudge] = await remindersTo(alice);
    expect(nudge.data).toMatchObject({ room: "general", performative: "REQUEST", nudge: true });
    expect((nudge.data as { body: string }).body).toMatch(/^C-\d+ “schema” was due .* C-\d+ “api” waits on it/);
    const sent = (await listJournal(getDb(), { kind: "ReminderSent" })).items[0];
    expect(sent.data).toMatchObject({ blockerId: schema, blockedId: api, ownerId: alice.id });

    clock.advance(44 * MINUTE);
    expect((await sweepReminders(getDb(), clock)).reminded).toBe(0);
    clock.advance(MINUTE);
    expect((await sweepReminders(getDb(), clock)).reminded).toBe(1);
    expect(await remindersTo(alice)).toHaveLength(2);
    expect(await remindersTo(bob)).toHaveLength(0);
    expect(await remindersTo(carol)).toHaveLength(0);
  });

  it("keeps the cooldown per edge: a second overdue blocker is nudged on its own schedule", async () => {
    const clock = manualClock(new Date("2026-03-01T00:00:00Z"));
    const [alice, bob, carol] = await Promise.all([makeAgent(), makeAgent(), makeAgent()]);
    await chain(clock, [
      { owner: alice, what: "schema", dueInMinutes: 10 },
      { owner: bob, what: "api", dueInMinutes: 30 },
      { owner: carol, what: "ui", dueInMinutes: 600 },
    ]);
    clock.advance(10 * MINUTE);
    expect((await sweepReminders(getDb(), clock)).reminded).toBe(1);
    clock.advance(20 * MINUTE);
    // Bob's edge is new to the cooldown; Alice's was reminded 20 minutes ago.
    expect((await sweepReminders(getDb(), clock)).reminded).toBe(1);
    expect(await remindersTo(bob)).toHaveLength(1);
    clock.advance(25 * MINUTE);
    expect((await sweepReminders(getDb(), clock)).reminded).toBe(1);
    expect(await remindersTo(alice)).toHaveLength(2);
    expect(await remindersTo(bob)).toHaveLength(1);
  });

  it("leaves overdue work off the critical path alone, and stops once the blocker is fulfilled", async () => {
    const clock = manualClock(new Date("2026-04-01T00:00:00Z"));
    const [alice, bob, dave] = await Promise.all([makeAgent(), makeAgent(), makeAgent()]);
    const [schema] = await chain(clock, [
      { owner: alice, what: "schema", dueInMinutes: 10 },
      { owner: bob, what: "api", dueInMinutes: 60 },
      { owner: bob, what: "ui", dueInMinutes: 120 },
    ]);
    // A shorter chain whose blocker is more overdue: not critical, never nudged.
    await chain(clock, [
      { owner: dave, what: "logo", dueInMinutes: 1 },
      { owner: dave, what: "site", dueInMinutes: 5 },
    ]);
    clock.advance(15 * MINUTE);
    expect((await sweepReminders(getDb(), clock)).reminded).toBe(1);
    expect(await remindersTo(dave)).toHaveLength(0);
    await fulfilCommitment(getDb(), alice, schema, { reason: "migrated" }, clock);
    clock.advance(60 * MINUTE);
    await sweepReminders(getDb(), clock);
    expect(await remindersTo(alice)).toHaveLength(1);
  });

  it("does nothing while another instance holds the reminder lock", async () => {
    const clock = manualClock(new Date("2026-05-01T00:00:00Z"));
    const alice = await makeAgent();
    await chain(clock, [
      { owner: alice, what: "schema", dueInMinutes: 1 },
      { owner: alice, what: "api", dueInMinutes: 60 },
    ]);
    clock.advance(2 * MINUTE);
    const held = await getConnection().sql.reserve();
    await held`begin`;
    await held`select pg_advisory_xact_lock(${REMINDER_SWEEP_LOCK})`;
    expect(await sweepReminders(getDb(), clock)).toEqual({ ran: false, reminded: 0 });
    await held`commit`;
    held.release();
    expect(await sweepReminders(getDb(), clock)).toEqual({ ran: true, reminded: 1 });
  });
});

// The rate floor, verbatim duplicates, lapping and the two-tier cap, each at its boundary, with an injected clock.
import { and, desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { events, roundCounts } from "../../db/schema";
import { getConnection, getDb } from "../../db/client";
import { manualClock } from "../clock";
import { getSystemPrincipal } from "../principals/create-principal";
import { getRoom } from "./rooms";
import { makeAgent, makeHuman } from "../../test/helpers";
import { payloadOf } from "../journal/payloads";
import { ackAll, ackAndPost, freshRoom, tryPost } from "../../test/fixtures/room";
import { listGateRejections } from "./gate-log";

/** How many closed rounds the two-tier cap looks back over, from the relay numbers' one home. */
const [{ twoTierRounds: TWO_TIER_ROUNDS }] = await getConnection().sql<{ twoTierRounds: number }[]>`
  select (quorum_relay_limits()->>'twoTierRounds')::int as "twoTierRounds"`;

async function lastRejection(actor: string) {
  const [row] = await getDb()
    .select()
    .from(events)
    .where(and(eq(events.kind, "GateRejected"), eq(events.actor, actor)))
    .orderBy(desc(events.id))
    .limit(1);
  return row && payloadOf(row, "GateRejected");
}

describe("rate floor", () => {
  it("passes the 30th message in a rolling minute, refuses the 31st with retryAfterMs, and a refusal counts toward nothing", async () => {
    const clock = manualClock();
    const human = await makeHuman();
    const agent = await makeAgent();
    const room = await freshRoom(human);
    for (let i = 1; i <= 30; i++) {
      const posted = await ackAndPost(agent, room, `progress note ${i}`, clock);
      expect(posted.ok, `message ${i}`).toBe(true);
      // A human keeps the loop counters at zero, so only the rate floor is in play.
      await tryPost(human, room, "noted", clock);
      clock.advance(1000);
    }
    // 30 messages at t0 … t0+29 s; now t0+30 s.
    const refused = await ackAndPost(agent, room, "progress note 31", clock);
    expect(refused).toMatchObject({ ok: false, status: 429, code: "rate_limited", body: { retryAfterMs: 30_000 } });
    expect(await lastRejection(agent.id)).toMatchObject({ room, gate: "rate", reason: "rate_limited", sender: agent.id, figures: { sentInWindow: 30, limit: 30 } });
    // The gate strip says it in the words the agent got.
    const [strip] = (await listGateRejections(getDb(), human, room, { limit: 1 })).items;
    expect(strip.message).toBe(!refused.ok && refused.body.message);
    expect(strip.message).toBe(`rate floor: 30 messages in #${room} in the last minute (the limit is 30); retry in 30 s`);

    clock.advance(29_999);
    const stillRefused = await ackAndPost(agent, room, "progress note 31", clock);
    expect(stillRefused).toMatchObject({ ok: false, status: 429, body: { retryAfterMs: 1 } });
    // Two refusals did not extend the window: the first message leaves it exactly 60 s after it was sent.
    clock.advance(1);
    expect((await ackAndPost(agent, room, "progress note 31", clock)).ok).toBe(true);
  });

  it("is per agent: messages in every room count toward one floor", async () => {
    const clock = manualClock();
    const human = await makeHuman();
    const [agent, other] = [await makeAgent(), await makeAgent()];
    const rooms = [await freshRoom(human), await freshRoom(human), await freshRoom(human)];
    const elsewhere = await freshRoom(human);
    // 30 messages spread over three rooms, ten each, a human speaking between them so only the floor is in play.
    for (let i = 1; i <= 30; i++) {
      const room = rooms[i % 3];
      expect((await ackAndPost(agent, room, `m${i}`, clock)).ok, `message ${i}`).toBe(true);
      await tryPost(human, room, "go on", clock);
    }
    // The 31st is refused in any room, one it has never posted in included; another agent is not affected.
    for (const room of [...rooms, elsewhere]) {
      expect(await ackAndPost(agent, room, "m31", clock)).toMatchObject({ ok: false, status: 429, code: "rate_limited" });
    }
    expect(await lastRejection(agent.id)).toMatchObject({ room: elsewhere, gate: "rate", figures: { sentInWindow: 30, limit: 30 } });
    expect((await ackAndPost(other, rooms[0], "m31", clock)).ok).toBe(true);
    clock.advance(60_000);
    expect((await ackAndPost(agent, elsewhere, "m31", clock)).ok).toBe(true);
  });

  it("holds across rooms under concurrency: of 40 posts at once in 8 rooms, exactly 30 pass", async () => {
    const clock = manualClock();
    const human = await makeHuman();
    const agent = await makeAgent();
    const rooms = await Promise.all(Array.from({ length: 8 }, () => freshRoom(human)));
    // A human present in each room caps the agent at 6 there (two-tier floor): 5 per room leaves only the rate floor.
    for (const room of rooms) {
      await tryPost(human, room, "go", clock);
      await ackAll(agent, room, clock);
    }
    const outcomes = await Promise.all(Array.from({ length: 40 }, (_, i) => tryPost(agent, rooms[i % 8], `burst ${i}`, clock)));
    expect(outcomes.filter((o) => o.ok)).toHaveLength(30);
    expect(outcomes.filter((o) => !o.ok).map((o) => !o.ok && o.code)).toEqual(Array(10).fill("rate_limited"));
  });
});

describe("verbatim duplicate", () => {
  it("refuses a byte-identical body from the same sender in the same room, even with a hold token", async () => {
    const clock = manualClock();
    const human = await makeHuman();
    const [agent, other] = [await makeAgent(), await makeAgent()];
    const room = await freshRoom(human);
    const elsewhere = await freshRoom(human);
    await tryPost(human, room, "kick-off", clock);
    const first = await ackAndPost(agent, room, "I'll take the parser task.", clock);
    expect(first.ok).toBe(true);
    const again = await ackAndPost(agent, room, "I'll take the parser task.", clock);
    expect(again).toMatchObject({ ok: false, status: 409, code: "duplicate" });
    expect(await lastRejection(agent.id)).toMatchObject({ gate: "duplicate", figures: { duplicateOfSeq: first.ok && first.message.seq } });
    // Not byte-identical, or someone else, or another room: all pass.
    expect((await ackAndPost(agent, room, "I'll take the parser task. ", clock)).ok).toBe(true);
    expect((await ackAndPost(other, room, "I'll take the parser task.", clock)).ok).toBe(true);
    expect((await ackAndPost(agent, elsewhere, "I'll take the parser task.", clock)).ok).toBe(true);

    // A stale refusal's hold token does not override the duplicate gate.
    const stale = await tryPost(agent, room, "something new", clock);
    expect(stale).toMatchObject({ ok: false, code: "stale" });
    const holdToken = !stale.ok ? (stale.body.holdToken as string) : "";
    const withToken = await tryPost(agent, room, { body: "I'll take the parser task.", holdToken }, clock);
    expect(withToken).toMatchObject({ ok: false, status: 409, code: "duplicate" });
    // The refused post did not spend the token.
    expect((await tryPost(agent, room, { body: "something new", holdToken }, clock)).ok).toBe(true);
  });

  it("is checked after the rate floor: a duplicate over the limit is rate_limited", async () => {
    const clock = manualClock();
    const human = await makeHuman();
    const agent = await makeAgent();
    const room = await freshRoom(human);
    for (let i = 1; i <= 30; i++) {
      await ackAndPost(agent, room, `m${i}`, clock);
      await tryPost(human, room, "ok", clock);
    }
    expect(await ackAndPost(agent, room, "m1", clock)).toMatchObject({ ok: false, code: "rate_limited" });
  });
});

describe("lapping (no human in the last 10 minutes)", () => {
  it("allows each agent as many messages as there are speakers, loosening as speakers join", async () => {
    const clock = manualClock();
    const human = await makeHuman();
    const [a, b, c] = [await makeAgent(), await makeAgent(), await makeAgent()];
    const room = await freshRoom(human);
    expect((await ackAndPost(a, room, "a1", clock)).ok).toBe(true);
    const lapped = await ackAndPost(a, room, "a2", clock);
    expect(lapped).toMatchObject({ ok: false, status: 409, code: "lapping", body: { sent: 1, speakers: 1 } });
    expect(lapped.ok === false && "cap" in lapped.body).toBe(false);
    expect(await lastRejection(a.id)).toMatchObject({ room, gate: "lapping", figures: { sent: 1, speakers: 1 } });

    expect((await ackAndPost(b, room, "b1", clock)).ok).toBe(true);
    expect((await ackAndPost(a, room, "a2", clock)).ok).toBe(true);
    expect(await ackAndPost(a, room, "a3", clock)).toMatchObject({ ok: false, code: "lapping", body: { sent: 2, speakers: 2 } });
    expect((await ackAndPost(c, room, "c1", clock)).ok).toBe(true);
    expect((await ackAndPost(a, room, "a3", clock)).ok).toBe(true);
    expect(await ackAndPost(a, room, "a4", clock)).toMatchObject({ ok: false, code: "lapping", body: { sent: 3, speakers: 3 } });
  });

  it("is reset by one human message, replaced by the cap while the human is here, and returns 10 minutes after", async () => {
    const clock = manualClock();
    const human = await makeHuman();
    const a = await makeAgent();
    const room = await freshRoom(human);
    expect((await ackAndPost(a, room, "a1", clock)).ok).toBe(true);
    expect((await ackAndPost(a, room, "a2", clock)).ok).toBe(false);
    await tryPost(human, room, "carry on", clock);
    clock.advance(10 * 60 * 1000 - 1);
    // The human spoke 9:59.999 ago: the two-tier cap (6) applies, not lapping (1).
    expect((await ackAndPost(a, room, "a2", clock)).ok).toBe(true);
    expect((await ackAndPost(a, room, "a3", clock)).ok).toBe(true);
    clock.advance(1);
    // Exactly 10 minutes: strict mode again, counting from the human message.
    expect(await ackAndPost(a, room, "a4", clock)).toMatchObject({ ok: false, code: "lapping", body: { sent: 2, speakers: 1 } });
  });

  it("is reset by the system speaking for a human (a flight's request, a verdict) as by the human", async () => {
    const clock = manualClock();
    const human = await makeHuman();
    const system = await getSystemPrincipal(getDb());
    const a = await makeAgent();
    const room = await freshRoom(human);
    clock.advance(10 * 60 * 1000);
    expect((await ackAndPost(a, room, "a1", clock)).ok).toBe(true);
    expect((await ackAndPost(a, room, "a2", clock)).ok).toBe(false);
    await tryPost(system, room, `Demo flight started by ${human.name}: make parse('') return []`, clock);
    expect((await ackAndPost(a, room, "a2", clock)).ok).toBe(true);
  });
});

describe("two-tier floor (a human spoke in the last 10 minutes)", () => {
  it("caps at 6 before three rounds exist", async () => {
    const clock = manualClock();
    const human = await makeHuman();
    const a = await makeAgent();
    const room = await freshRoom(human);
    await tryPost(human, room, "let's go", clock);
    for (let i = 1; i <= 6; i++) expect((await ackAndPost(a, room, `step ${i}`, clock)).ok).toBe(true);
    const capped = await ackAndPost(a, room, "step 7", clock);
    expect(capped).toMatchObject({ ok: false, status: 409, code: "lapping", body: { cap: 6, sent: 6 } });
    expect(await lastRejection(a.id)).toMatchObject({ gate: "two_tier", figures: { cap: 6, rounds: 0, mean: null } });
  });

  it("uses max(6, ⌈μ + 2σ⌉) over the per-agent counts of past rounds", async () => {
    const clock = manualClock();
    const human = await makeHuman();
    const [a, b] = [await makeAgent(), await makeAgent()];
    const room = await freshRoom(human);
    // Three rounds in which a says 6 things and b says 1: counts 6,1,6,1,6,1 → μ = 3.5, σ = 2.5, cap ⌈8.5⌉ = 9.
    for (let round = 1; round <= 3; round++) {
      await tryPost(human, room, `round ${round}`, clock);
      for (let i = 1; i <= 6; i++) expect((await ackAndPost(a, room, `r${round} a${i}`, clock)).ok).toBe(true);
      expect((await ackAndPost(b, room, `r${round} b1`, clock)).ok).toBe(true);
      clock.advance(60_000);
    }
    await tryPost(human, room, "round 4", clock);
    for (let i = 1; i <= 9; i++) expect((await ackAndPost(a, room, `r4 a${i}`, clock)).ok, `message ${i}`).toBe(true);
    const capped = await ackAndPost(a, room, "r4 a10", clock);
    expect(capped).toMatchObject({ ok: false, code: "lapping", body: { cap: 9, sent: 9 } });
    expect(await lastRejection(a.id)).toMatchObject({ gate: "two_tier", figures: { cap: 9, rounds: 3, mean: 3.5, stdDev: 2.5 } });
    // One human message resets the count; the cap stays what the rounds say.
    await tryPost(human, room, "round 5", clock);
    expect((await ackAndPost(a, room, "r5 a1", clock)).ok).toBe(true);
  });

  it(`reads only the last ${TWO_TIER_ROUNDS} rounds (the figures the opening round keeps, migration 0025)`, async () => {
    const clock = manualClock();
    const human = await makeHuman();
    const a = await makeAgent();
    const room = await freshRoom(human);
    // A runaway round long ago (1,000 messages), then TWO_TIER_ROUNDS quiet ones (2 each): only the quiet
    // ones count, so μ = 2, σ = 0 and the cap is the floor. With the old round in, μ + 2σ would pass 200.
    const quiet = Array.from({ length: TWO_TIER_ROUNDS }, (_, i) => ({ room, n: i + 2, agentId: a.id, count: 2 }));
    await getDb()
      .insert(roundCounts)
      .values([{ room, n: 1, agentId: a.id, count: 1000 }, ...quiet]);
    await tryPost(human, room, "a new round", clock);
    for (let i = 1; i <= 6; i++) expect((await ackAndPost(a, room, `step ${i}`, clock)).ok).toBe(true);
    expect((await ackAndPost(a, room, "step 7", clock)).ok).toBe(false);
    expect(await lastRejection(a.id)).toMatchObject({ gate: "two_tier", figures: { cap: 6, rounds: TWO_TIER_ROUNDS, mean: 2, stdDev: 0 } });
  });
});

describe("who is gated", () => {
  it("never throttles humans or the system principal, and a refusal leaves the room untouched", async () => {
    const clock = manualClock();
    const human = await makeHuman();
    const agent = await makeAgent();
    const system = await getSystemPrincipal(getDb());
    const room = await freshRoom(human);
    for (let i = 0; i < 40; i++) expect((await tryPost(human, room, "same words, again", clock)).ok).toBe(true);
    for (let i = 0; i < 35; i++) expect((await tryPost(system, room, "lease expired on #1", clock)).ok).toBe(true);
    await ackAll(agent, room, clock);
    expect((await tryPost(agent, room, "hello", clock)).ok).toBe(true);
    const before = await getRoom(getDb(), room);
    expect((await ackAndPost(agent, room, "hello", clock)).ok).toBe(false);
    expect((await getRoom(getDb(), room)).lastSeq).toBe(before.lastSeq);
  });
});

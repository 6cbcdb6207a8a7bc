// Eight agents posting at once into one room: the room lock serialises the gates, so no limit is exceeded.
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { messages, principals } from "../../db/schema";
import { getDb } from "../../db/client";
import { manualClock } from "../clock";
import type { Principal } from "../principal";
import { makeAgent, makeHuman } from "../../test/helpers";
import { ackAll, freshRoom, tryPost, type PostOutcome } from "../../test/fixtures/room";

const AGENTS = 8;

async function team() {
  const human = await makeHuman();
  const agents = await Promise.all(Array.from({ length: AGENTS }, () => makeAgent()));
  return { human, agents };
}

function tally(outcomes: PostOutcome[]) {
  const byCode = new Map<string, number>();
  for (const o of outcomes) byCode.set(o.ok ? "ok" : o.code, (byCode.get(o.ok ? "ok" : o.code) ?? 0) + 1);
  return Object.fromEntries(byCode);
}

async function roomLog(room: string) {
  return getDb()
    .select({ senderId: messages.senderId, kind: principals.kind })
    .from(messages)
    .innerJoin(principals, eq(principals.id, messages.senderId))
    .where(eq(messages.room, room))
    .orderBy(asc(messages.seq));
}

describe("8 agents at once", () => {
  it("never lap: in every prefix of the room, no agent has more messages than there are speakers", async () => {
    const clock = manualClock();
    const { human, agents } = await team();
    const room = await freshRoom(human);
    // Direct messages skip freshness, so lapping is the gate being raced.
    const attempts = agents.flatMap((a) => [1, 2, 3, 4].map((i) => tryPost(a, room, { body: `${a.name} #${i}`, to: human.name }, clock)));
    const outcomes = await Promise.all(attempts);
    const counts = tally(outcomes);
    expect(counts.ok).toBeGreaterThanOrEqual(AGENTS);
    expect((counts.ok ?? 0) + (counts.lapping ?? 0)).toBe(AGENTS * 4);
    const sent = new Map<string, number>();
    for (const m of await roomLog(room)) {
      sent.set(m.senderId, (sent.get(m.senderId) ?? 0) + 1);
      expect(sent.get(m.senderId)).toBeLessThanOrEqual(sent.size);
    }
  });

  it("hold each agent to the two-tier cap of 6 while a human is here", async () => {
    const clock = manualClock();
    const { human, agents } = await team();
    const room = await freshRoom(human);
    await tryPost(human, room, "go", clock);
    const outcomes = await Promise.all(agents.flatMap((a) => Array.from({ length: 10 }, (_, i) => tryPost(a, room, { body: `${a.name} step ${i}`, to: human.name }, clock))));
    expect(tally(outcomes)).toEqual({ ok: AGENTS * 6, lapping: AGENTS * 4 });
    const log = await roomLog(room);
    for (const a of agents) expect(log.filter((m) => m.senderId === a.id)).toHaveLength(6);
  });

  it("hold each agent to 30 messages a minute", async () => {
    const clock = manualClock();
    const { human, agents } = await team();
    const room = await freshRoom(human);
    // 29 rounds: every agent says one thing, then the human answers (resetting the loop counters).
    for (let round = 1; round <= 29; round++) {
      await Promise.all(agents.map((a) => tryPost(a, room, { body: `${a.name} r${round}`, to: human.name }, clock)));
      await tryPost(human, room, `ack ${round}`, clock);
    }
    const outcomes = await Promise.all(agents.flatMap((a) => Array.from({ length: 4 }, (_, i) => tryPost(a, room, { body: `${a.name} last ${i}`, to: human.name }, clock))));
    expect(tally(outcomes)).toEqual({ ok: AGENTS, rate_limited: AGENTS * 3 });
    const log = await roomLog(room);
    for (const a of agents) expect(log.filter((m) => m.senderId === a.id)).toHaveLength(30);
  });

  it("let only one of eight identical bodies per agent through, and only one of eight fresh broadcasts", async () => {
    const clock = manualClock();
    const { human, agents } = await team();
    const room = await freshRoom(human);
    await tryPost(human, room, "go", clock);
    const dupes = await Promise.all(agents.flatMap((a: Principal) => [1, 2, 3].map(() => tryPost(a, room, { body: "same thing", to: human.name }, clock))));
    expect(tally(dupes)).toEqual({ ok: AGENTS, duplicate: AGENTS * 2 });

    for (const a of agents) await ackAll(a, room, clock);
    const broadcasts = await Promise.all(agents.map((a) => tryPost(a, room, `${a.name}: my plan`, clock)));
    // The first to commit is news to the other seven, who are now stale.
    expect(tally(broadcasts)).toEqual({ ok: 1, stale: AGENTS - 1 });
  });
});

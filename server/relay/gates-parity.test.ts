// The database admits a post (quorum_post_gates_pass, migration 0026) exactly when decideGates would: the
// same verdict over thousands of fact sets drawn around every gate's boundary, from a fixed seed.
import { describe, expect, it } from "vitest";
import { getConnection } from "../../db/client";
import { decideGates, type GateFacts } from "./gates";
import { HUMAN_PRESENT_MS, RATE_LIMIT, TWO_TIER_FLOOR } from "./limits";
import { POST_LIMITS } from "./post-combiner";

/** mulberry32: a small seeded generator, so a failing case can be replayed. */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Case {
  facts: GateFacts;
  direct: boolean;
  presented: boolean;
  nowMs: number;
}

function drawCase(random: () => number): Case {
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const pick = <T>(...xs: T[]) => xs[int(0, xs.length - 1)];
  const nowMs = Date.UTC(2026, 10, 30, 12) + int(0, 1000);
  const latestUnreadSeq = int(1, 40);
  const unreadCount = pick(0, 0, 1, int(2, 9));
  const mean = pick(null, int(0, 8), int(0, 800) / 100, 5);
  return {
    nowMs,
    direct: random() < 0.3,
    presented: random() < 0.6,
    facts: {
      rate: { sentInWindow: pick(0, int(0, RATE_LIMIT + 2), RATE_LIMIT - 1, RATE_LIMIT), oldestMs: pick(null, nowMs - int(0, 60_000)) },
      duplicateOfSeq: random() < 0.15 ? int(1, 40) : null,
      cursor: int(0, 40),
      unreadCount,
      latestUnreadSeq: unreadCount === 0 ? null : latestUnreadSeq,
      holdToken:
        random() < 0.3 ? null : { id: crypto.randomUUID(), seq: latestUnreadSeq + int(-2, 1), used: random() < 0.2, expiresAtMs: nowMs + pick(-1, 0, 1, int(-5000, 120_000)) },
      round: random() < 0.25 ? null : { humanSeq: int(0, 30), humanAtMs: nowMs - pick(HUMAN_PRESENT_MS, HUMAN_PRESENT_MS - 1, HUMAN_PRESENT_MS + 1, int(0, 2 * HUMAN_PRESENT_MS)) },
      sent: pick(int(0, 3), int(0, TWO_TIER_FLOOR + 6)),
      otherSpeakers: int(0, 8),
      roundStats: { rounds: int(0, 6), mean, stdDev: mean === null ? null : pick(0, 0.5, int(0, 400) / 100) },
    },
  };
}

describe("the database's admission test", () => {
  it("admits exactly the posts decideGates passes, over 5,000 fact sets around every boundary", async () => {
    const random = seeded(20261130);
    const cases = Array.from({ length: 5000 }, () => drawCase(random));
    const rows = await getConnection().sql<{ pass: boolean }[]>`
      select quorum_post_gates_pass(c->'facts', (c->>'direct')::boolean, (c->>'presented')::boolean, (c->>'nowMs')::float8, ${POST_LIMITS}::jsonb) as pass
      from jsonb_array_elements(${JSON.stringify(cases)}::jsonb) with ordinality as x(c, n) order by n`;
    const expected = cases.map(
      (c) => decideGates({ kind: "agent" }, { toId: c.direct ? "someone" : null, holdToken: c.presented ? "hold_x" : undefined }, c.facts, new Date(c.nowMs)).pass,
    );
    const disagreements = cases.filter((_, i) => rows[i].pass !== expected[i]);
    expect(disagreements.slice(0, 3)).toEqual([]);
    // The draw reaches both verdicts often, so the agreement is not a run of trivial passes or refusals.
    const passes = expected.filter(Boolean).length;
    expect(passes).toBeGreaterThan(500);
    expect(cases.length - passes).toBeGreaterThan(500);
  });
});

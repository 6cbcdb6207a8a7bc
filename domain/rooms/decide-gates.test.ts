// The gates' decision as the database makes it (quorum_post_gate_refusal), over fact sets: each gate at its
// boundary, in DESIGN §5's order, with the figures GateRejected keeps. Posting through postMessage is in
// ./gates.test.ts, ./freshness.test.ts and ./courtesy-loop.test.ts.
import { describe, expect, it } from "vitest";
import { getConnection } from "../../db/client";
import { gateRefusal, type GateRefusal } from "./gate-refusal";

const sql = getConnection().sql;
const now = Date.parse("2026-11-30T12:00:00.000Z");
/** The relay's numbers, from their one home. */
const [{ limits }] = await sql<{ limits: { rateLimit: number; rateWindowMs: number; humanPresentMs: number; twoTierFloor: number } }[]>`
  select quorum_relay_limits() as limits`;

interface Facts {
  rate: { sentInWindow: number; oldestMs: number | null };
  duplicateOfSeq: number | null;
  cursor: number;
  unreadCount: number;
  latestUnreadSeq: number | null;
  holdToken: { id: string; seq: number; used: boolean; expiresAtMs: number } | null;
  round: { humanSeq: number; humanAtMs: number } | null;
  sent: number;
  otherSpeakers: number;
  roundStats: { rounds: number; mean: number | null; stdDev: number | null };
}

/** A quiet room: nothing sent, nothing unread, no human round yet. */
function facts(over: Partial<Facts> = {}): Facts {
  return {
    rate: { sentInWindow: 0, oldestMs: null },
    duplicateOfSeq: null,
    cursor: 0,
    unreadCount: 0,
    latestUnreadSeq: null,
    holdToken: null,
    round: null,
    sent: 0,
    otherSpeakers: 0,
    roundStats: { rounds: 0, mean: null, stdDev: null },
    ...over,
  };
}

/** The database's verdict on one post: null admits it. */
async function decide(f: Facts, post: { direct?: boolean; presented?: boolean } = {}): Promise<GateRefusal | null> {
  const [{ refusal }] = await sql<{ refusal: unknown }[]>`
    select quorum_post_gate_refusal(${JSON.stringify(f)}::jsonb, ${post.direct ?? false}, ${post.presented ?? false}, ${now}::float8) as refusal`;
  // Every refusal is the shape its words and GateRejected's readers expect.
  return refusal === null ? null : gateRefusal.parse(refusal);
}

describe("quorum_post_gate_refusal", () => {
  it("admits the 30th message of a minute and refuses the 31st until the oldest leaves the window", async () => {
    expect(limits.rateLimit).toBe(30);
    expect(await decide(facts({ rate: { sentInWindow: limits.rateLimit - 1, oldestMs: now - 1000 } }))).toBeNull();
    const oldest = now - limits.rateWindowMs + 30_000;
    expect(await decide(facts({ rate: { sentInWindow: limits.rateLimit, oldestMs: oldest } }))).toEqual({
      gate: "rate",
      reason: "rate_limited",
      figures: { sentInWindow: 30, limit: 30, windowMs: 60_000, retryAfterMs: 30_000 },
    });
    // At the window's very edge the retry is never 0 ms.
    const edge = await decide(facts({ rate: { sentInWindow: limits.rateLimit, oldestMs: now - limits.rateWindowMs } }));
    expect(edge).toMatchObject({ gate: "rate", figures: { retryAfterMs: 1 } });
  });

  it("checks rate, then duplicate, then freshness, then the loop counters", async () => {
    const all = facts({ rate: { sentInWindow: limits.rateLimit, oldestMs: now - 1000 }, duplicateOfSeq: 4, unreadCount: 2, latestUnreadSeq: 7, sent: 5 });
    expect(await decide(all)).toMatchObject({ gate: "rate" });
    const noRate = { ...all, rate: { sentInWindow: 0, oldestMs: null } };
    expect(await decide(noRate)).toEqual({ gate: "duplicate", reason: "duplicate", figures: { duplicateOfSeq: 4 } });
    expect(await decide({ ...noRate, duplicateOfSeq: null })).toEqual({
      gate: "freshness",
      reason: "stale",
      figures: { cursor: 0, unreadCount: 2, latestSeq: 7, tokenProblem: null },
    });
    expect(await decide({ ...noRate, duplicateOfSeq: null, unreadCount: 0, latestUnreadSeq: null })).toEqual({
      gate: "lapping",
      reason: "lapping",
      figures: { sent: 5, speakers: 1, sinceSeq: 0 },
    });
  });

  it("lets a direct message past freshness, never past the loop counters", async () => {
    const unread = facts({ unreadCount: 3, latestUnreadSeq: 9 });
    expect(await decide(unread, { direct: true })).toBeNull();
    expect(await decide({ ...unread, sent: 1 }, { direct: true })).toMatchObject({ gate: "lapping" });
  });

  it("judges a hold token: unknown, used, expired, overtaken, or good for this seq", async () => {
    const stale = facts({ cursor: 2, unreadCount: 3, latestUnreadSeq: 9 });
    const token = { id: "2b9f6f4e-0000-4000-8000-000000000001", seq: 9, used: false, expiresAtMs: now + 1 };
    const presented = { presented: true };
    const problem = async (f: Facts) => ((await decide(f, presented)) as Extract<GateRefusal, { gate: "freshness" }> | null)?.figures.tokenProblem;
    expect(await problem(stale)).toBe("unknown");
    expect(await problem({ ...stale, holdToken: { ...token, used: true } })).toBe("used");
    expect(await problem({ ...stale, holdToken: { ...token, expiresAtMs: now } })).toBe("expired");
    expect(await problem({ ...stale, holdToken: { ...token, seq: 8 } })).toBe("newer_arrived");
    expect(await decide({ ...stale, holdToken: token }, presented)).toBeNull();
    // Nothing unread: the token is not needed.
    expect(await decide({ ...stale, unreadCount: 0, latestUnreadSeq: null, holdToken: token }, presented)).toBeNull();
  });

  it("allows as many messages as there are speakers while no human is present", async () => {
    const quiet = facts({ round: { humanSeq: 10, humanAtMs: now - limits.humanPresentMs }, otherSpeakers: 2 });
    expect(await decide({ ...quiet, sent: 2 })).toBeNull();
    expect(await decide({ ...quiet, sent: 3 })).toEqual({ gate: "lapping", reason: "lapping", figures: { sent: 3, speakers: 3, sinceSeq: 10 } });
  });

  it("caps at max(6, ⌈μ + 2σ⌉) while a human is present, 6 before three rounds exist", async () => {
    const round = { humanSeq: 4, humanAtMs: now - limits.humanPresentMs + 1 };
    expect(await decide(facts({ round, sent: limits.twoTierFloor - 1 }))).toBeNull();
    expect(await decide(facts({ round, sent: 6, roundStats: { rounds: 2, mean: 40, stdDev: 10 } }))).toEqual({
      gate: "two_tier",
      reason: "lapping",
      // Below three rounds μ and σ are not the cap's figures.
      figures: { sent: 6, cap: 6, rounds: 2, mean: null, stdDev: null, sinceSeq: 4, humanAt: new Date(round.humanAtMs).toISOString() },
    });
    // Counts 4, 8, 12 over three rounds: μ = 8, σ = √(32/3) ≈ 3.27, cap ⌈14.53⌉ = 15.
    const roundStats = { rounds: 3, mean: 8, stdDev: Math.sqrt(32 / 3) };
    expect(await decide(facts({ round, sent: 14, roundStats }))).toBeNull();
    expect(await decide(facts({ round, sent: 15, roundStats }))).toMatchObject({ gate: "two_tier", figures: { cap: 15, rounds: 3, mean: 8, stdDev: Math.sqrt(32 / 3) } });
    // μ + 2σ a hair over an integer from float noise does not add a message; a quiet history keeps the floor.
    expect(await decide(facts({ round, sent: 7, roundStats: { rounds: 3, mean: 7.0000000000001, stdDev: 0 } }))).toMatchObject({ figures: { cap: 7 } });
    expect(await decide(facts({ round, sent: 6, roundStats: { rounds: 100, mean: 2, stdDev: 0 } }))).toMatchObject({ figures: { cap: 6 } });
  });
});

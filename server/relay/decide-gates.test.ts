// The gates' decision without a database: each gate at its boundary, in DESIGN §5's order.
import { describe, expect, it } from "vitest";
import { decideGates, type GateFacts } from "./gates";
import { HUMAN_PRESENT_MS, RATE_LIMIT, RATE_WINDOW_MS } from "./limits";

const now = new Date("2026-11-30T12:00:00.000Z");
const agent = { kind: "agent" as const };
const broadcast = { toId: null };

/** A quiet room: nothing sent, nothing unread, no human round yet. */
function facts(over: Partial<GateFacts> = {}): GateFacts {
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

describe("decideGates", () => {
  it("never gates humans or the system, whatever the facts", () => {
    const busy = facts({ rate: { sentInWindow: 99, oldestMs: now.getTime() }, duplicateOfSeq: 3, unreadCount: 5, latestUnreadSeq: 9, sent: 50 });
    expect(decideGates({ kind: "human" }, broadcast, busy, now)).toEqual({ pass: true });
    expect(decideGates({ kind: "system" }, broadcast, busy, now)).toEqual({ pass: true });
  });

  it("passes the 30th message of a minute and refuses the 31st until the oldest leaves the window", () => {
    expect(decideGates(agent, broadcast, facts({ rate: { sentInWindow: RATE_LIMIT - 1, oldestMs: now.getTime() - 1000 } }), now).pass).toBe(true);
    const oldest = now.getTime() - RATE_WINDOW_MS + 30_000;
    expect(decideGates(agent, broadcast, facts({ rate: { sentInWindow: RATE_LIMIT, oldestMs: oldest } }), now)).toEqual({
      pass: false,
      refusal: { gate: "rate", sentInWindow: RATE_LIMIT, limit: RATE_LIMIT, windowMs: RATE_WINDOW_MS, retryAfterMs: 30_000 },
    });
    // At the window's very edge the retry is never 0 ms.
    const edge = decideGates(agent, broadcast, facts({ rate: { sentInWindow: RATE_LIMIT, oldestMs: now.getTime() - RATE_WINDOW_MS } }), now);
    expect(edge).toMatchObject({ pass: false, refusal: { gate: "rate", retryAfterMs: 1 } });
  });

  it("checks rate, then duplicate, then freshness, then the loop counters", () => {
    const all = facts({
      rate: { sentInWindow: RATE_LIMIT, oldestMs: now.getTime() - 1000 },
      duplicateOfSeq: 4,
      unreadCount: 2,
      latestUnreadSeq: 7,
      sent: 5,
    });
    expect(decideGates(agent, broadcast, all, now)).toMatchObject({ refusal: { gate: "rate" } });
    const noRate = { ...all, rate: { sentInWindow: 0, oldestMs: null } };
    expect(decideGates(agent, broadcast, noRate, now)).toEqual({ pass: false, refusal: { gate: "duplicate", duplicateOfSeq: 4 } });
    expect(decideGates(agent, broadcast, { ...noRate, duplicateOfSeq: null }, now)).toEqual({
      pass: false,
      refusal: { gate: "freshness", unreadCount: 2, cursor: 0, latestSeq: 7 },
    });
    expect(decideGates(agent, broadcast, { ...noRate, duplicateOfSeq: null, unreadCount: 0, latestUnreadSeq: null }, now)).toEqual({
      pass: false,
      refusal: { gate: "lapping", sent: 5, speakers: 1, sinceSeq: 0 },
    });
  });

  it("lets a direct message past freshness, never past the loop counters", () => {
    const unread = facts({ unreadCount: 3, latestUnreadSeq: 9 });
    expect(decideGates(agent, { toId: "someone" }, unread, now)).toEqual({ pass: true });
    expect(decideGates(agent, { toId: "someone" }, { ...unread, sent: 1 }, now)).toMatchObject({ refusal: { gate: "lapping" } });
  });

  it("judges a hold token: unknown, used, expired, overtaken, or good for this seq", () => {
    const stale = facts({ cursor: 2, unreadCount: 3, latestUnreadSeq: 9 });
    const token = { id: "t1", seq: 9, used: false, expiresAtMs: now.getTime() + 1 };
    const withToken = { toId: null, holdToken: "hold_x" };
    expect(decideGates(agent, withToken, stale, now)).toMatchObject({ refusal: { gate: "freshness", tokenProblem: "unknown" } });
    expect(decideGates(agent, withToken, { ...stale, holdToken: { ...token, used: true } }, now)).toMatchObject({ refusal: { tokenProblem: "used" } });
    expect(decideGates(agent, withToken, { ...stale, holdToken: { ...token, expiresAtMs: now.getTime() } }, now)).toMatchObject({ refusal: { tokenProblem: "expired" } });
    expect(decideGates(agent, withToken, { ...stale, holdToken: { ...token, seq: 8 } }, now)).toMatchObject({ refusal: { tokenProblem: "newer_arrived" } });
    expect(decideGates(agent, withToken, { ...stale, holdToken: token }, now)).toEqual({ pass: true, holdTokenId: "t1", heldSeq: 9 });
    // Nothing unread: the token is not needed, so it is not spent.
    expect(decideGates(agent, withToken, { ...stale, unreadCount: 0, latestUnreadSeq: null, holdToken: token }, now)).toEqual({ pass: true });
  });

  it("allows as many messages as there are speakers while no human is present", () => {
    const quiet = facts({ round: { humanSeq: 10, humanAtMs: now.getTime() - HUMAN_PRESENT_MS }, otherSpeakers: 2 });
    expect(decideGates(agent, broadcast, { ...quiet, sent: 2 }, now).pass).toBe(true);
    expect(decideGates(agent, broadcast, { ...quiet, sent: 3 }, now)).toEqual({ pass: false, refusal: { gate: "lapping", sent: 3, speakers: 3, sinceSeq: 10 } });
  });

  it("caps at max(6, ⌈μ + 2σ⌉) while a human is present, 6 before three rounds exist", () => {
    const round = { humanSeq: 4, humanAtMs: now.getTime() - HUMAN_PRESENT_MS + 1 };
    expect(decideGates(agent, broadcast, facts({ round, sent: 5 }), now).pass).toBe(true);
    expect(decideGates(agent, broadcast, facts({ round, sent: 6 }), now)).toEqual({
      pass: false,
      refusal: { gate: "two_tier", sent: 6, cap: { cap: 6, rounds: 0, mean: null, stdDev: null }, sinceSeq: 4, humanAt: new Date(round.humanAtMs).toISOString() },
    });
    // Counts 4, 8, 12 over three rounds: μ = 8, σ = √(32/3) ≈ 3.27, cap ⌈14.53⌉ = 15.
    const roundStats = { rounds: 3, mean: 8, stdDev: Math.sqrt(32 / 3) };
    expect(decideGates(agent, broadcast, facts({ round, sent: 14, roundStats }), now).pass).toBe(true);
    expect(decideGates(agent, broadcast, facts({ round, sent: 15, roundStats }), now)).toMatchObject({ refusal: { gate: "two_tier", cap: { cap: 15, rounds: 3 } } });
  });
});

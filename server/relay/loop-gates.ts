// Lapping (no human present) and the two-tier floor (a human spoke lately): the loop counters, decided
// from facts read under the room lock (./post-facts.ts).
import { HUMAN_PRESENT_MS, TWO_TIER_FLOOR, TWO_TIER_MIN_ROUNDS } from "./limits";

export interface TwoTierCap {
  cap: number;
  rounds: number;
  mean: number | null;
  stdDev: number | null;
}

/**
 * max(6, ⌈μ + 2σ⌉) over the per-agent counts of the room's last 100 closed rounds in which an
 * agent spoke (σ is the population deviation); below 3 such rounds the cap is 6. `rows` are those
 * rounds' (round, agent count) rows.
 */
export function twoTierCapOf(rows: { n: number; count: number }[]): TwoTierCap {
  const rounds = new Set(rows.map((r) => r.n)).size;
  if (rounds < TWO_TIER_MIN_ROUNDS) return { cap: TWO_TIER_FLOOR, rounds, mean: null, stdDev: null };
  const values = rows.map((r) => r.count);
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const stdDev = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length);
  // Rounded before the ceiling so that float noise (6.0000000001) never adds a message.
  const cap = Math.max(TWO_TIER_FLOOR, Math.ceil(Number((mean + 2 * stdDev).toFixed(9))));
  return { cap, rounds, mean, stdDev };
}

/** What the loop gates read: counts run from the room's last human message (one resets them all). */
export interface LoopFacts {
  /** The room's last round: the seq and time of its last human message; null before any. */
  round: { humanSeq: number; humanAtMs: number } | null;
  /** The sender's messages in the room since that human message. */
  sent: number;
  /** Other agents who spoke in the room since then (read only when no human is present). */
  otherSpeakers: number;
  /** The last 100 closed rounds' per-agent counts (read only while a human is present). */
  roundCounts: { n: number; count: number }[];
}

export type LoopVerdict =
  | { pass: true }
  | { pass: false; gate: "lapping"; sent: number; speakers: number; sinceSeq: number }
  | { pass: false; gate: "two_tier"; sent: number; cap: TwoTierCap; sinceSeq: number; humanAt: string };

export function humanPresent(round: LoopFacts["round"], now: Date): boolean {
  return round !== null && round.humanAtMs > now.getTime() - HUMAN_PRESENT_MS;
}

export function decideLoopGates(facts: LoopFacts, now: Date): LoopVerdict {
  const sinceSeq = facts.round?.humanSeq ?? 0;
  const { sent } = facts;
  if (facts.round && humanPresent(facts.round, now)) {
    const cap = twoTierCapOf(facts.roundCounts);
    if (sent + 1 > cap.cap) return { pass: false, gate: "two_tier", sent, cap, sinceSeq, humanAt: new Date(facts.round.humanAtMs).toISOString() };
    return { pass: true };
  }
  const speakers = facts.otherSpeakers + 1;
  if (sent + 1 > speakers) return { pass: false, gate: "lapping", sent, speakers, sinceSeq };
  return { pass: true };
}

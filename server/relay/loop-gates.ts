// Lapping (no human present) and the two-tier floor (a human spoke lately): the loop counters, decided
// from facts read under the room lock (quorum_post_message, migration 0026).
import { HUMAN_PRESENT_MS, TWO_TIER_FLOOR, TWO_TIER_MIN_ROUNDS } from "./limits";

export interface TwoTierCap {
  cap: number;
  rounds: number;
  mean: number | null;
  stdDev: number | null;
}

/** μ and σ (population) of the per-agent counts of a room's last 100 closed rounds in which an agent spoke, and how many such rounds there were (kept on the open round's row, migration 0025). */
export interface RoundStats {
  rounds: number;
  mean: number | null;
  stdDev: number | null;
}

/** max(6, ⌈μ + 2σ⌉) over those counts; below 3 such rounds the cap is 6. */
export function twoTierCapOf(stats: RoundStats): TwoTierCap {
  const { rounds, mean, stdDev } = stats;
  if (rounds < TWO_TIER_MIN_ROUNDS || mean === null || stdDev === null) return { cap: TWO_TIER_FLOOR, rounds, mean: null, stdDev: null };
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
  /** The two-tier cap's figures over the last 100 closed rounds (used only while a human is present). */
  roundStats: RoundStats;
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
    const cap = twoTierCapOf(facts.roundStats);
    if (sent + 1 > cap.cap) return { pass: false, gate: "two_tier", sent, cap, sinceSeq, humanAt: new Date(facts.round.humanAtMs).toISOString() };
    return { pass: true };
  }
  const speakers = facts.otherSpeakers + 1;
  if (sent + 1 > speakers) return { pass: false, gate: "lapping", sent, speakers, sinceSeq };
  return { pass: true };
}

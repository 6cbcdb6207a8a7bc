// Lapping (no human present) and the two-tier floor (a human spoke lately): the loop counters.
import { and, count, countDistinct, desc, eq, gt, sql } from "drizzle-orm";
import { messages, principals, roomRounds, roundCounts } from "../../db/schema";
import type { Executor } from "../../db/client";
import { HUMAN_PRESENT_MS, TWO_TIER_FLOOR, TWO_TIER_MIN_ROUNDS, TWO_TIER_ROUNDS } from "./limits";

export interface TwoTierCap {
  cap: number;
  rounds: number;
  mean: number | null;
  stdDev: number | null;
}

/**
 * max(6, ⌈μ + 2σ⌉) over the per-agent counts of the room's last 100 closed rounds in which an
 * agent spoke (σ is the population deviation); below 3 such rounds the cap is 6.
 */
export async function twoTierCap(db: Executor, room: string): Promise<TwoTierCap> {
  const recent = db.selectDistinct({ n: roundCounts.n }).from(roundCounts).where(eq(roundCounts.room, room)).orderBy(desc(roundCounts.n)).limit(TWO_TIER_ROUNDS);
  const rows = await db
    .select({ n: roundCounts.n, count: roundCounts.count })
    .from(roundCounts)
    .where(and(eq(roundCounts.room, room), sql`${roundCounts.n} in (${recent})`));
  const rounds = new Set(rows.map((r) => r.n)).size;
  if (rounds < TWO_TIER_MIN_ROUNDS) return { cap: TWO_TIER_FLOOR, rounds, mean: null, stdDev: null };
  const values = rows.map((r) => r.count);
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const stdDev = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length);
  // Rounded before the ceiling so that float noise (6.0000000001) never adds a message.
  const cap = Math.max(TWO_TIER_FLOOR, Math.ceil(Number((mean + 2 * stdDev).toFixed(9))));
  return { cap, rounds, mean, stdDev };
}

export type LoopVerdict =
  | { pass: true }
  | { pass: false; gate: "lapping"; sent: number; speakers: number; sinceSeq: number }
  | { pass: false; gate: "two_tier"; sent: number; cap: TwoTierCap; sinceSeq: number; humanAt: string };

/** Counts run from the last human message of the room (one human message resets them all). */
export async function checkLoopGates(tx: Executor, agentId: string, room: string, now: Date): Promise<LoopVerdict> {
  const [last] = await tx.select().from(roomRounds).where(eq(roomRounds.room, room)).orderBy(desc(roomRounds.n)).limit(1);
  const sinceSeq = last?.humanSeq ?? 0;
  const [{ sent }] = await tx
    .select({ sent: count() })
    .from(messages)
    .where(and(eq(messages.room, room), eq(messages.senderId, agentId), gt(messages.seq, sinceSeq)));
  const humanPresent = last !== undefined && last.humanAt.getTime() > now.getTime() - HUMAN_PRESENT_MS;
  if (humanPresent) {
    const cap = await twoTierCap(tx, room);
    if (sent + 1 > cap.cap) return { pass: false, gate: "two_tier", sent, cap, sinceSeq, humanAt: last.humanAt.toISOString() };
    return { pass: true };
  }
  const [{ others }] = await tx
    .select({ others: countDistinct(messages.senderId) })
    .from(messages)
    .innerJoin(principals, eq(principals.id, messages.senderId))
    .where(and(eq(messages.room, room), gt(messages.seq, sinceSeq), eq(principals.kind, "agent"), sql`${messages.senderId} <> ${agentId}`));
  const speakers = others + 1;
  if (sent + 1 > speakers) return { pass: false, gate: "lapping", sent, speakers, sinceSeq };
  return { pass: true };
}

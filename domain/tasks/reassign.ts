// Scored reassignment: score = presence − load×10 + success_rate×10, highest first, ties by name.
import { and, eq, inArray, sql } from "drizzle-orm";
import { principals, tasks } from "../../db/schema";
import type { Executor } from "../../db/client";
import { PRESENCE_WINDOW_MS } from "../principals/authenticate";
import { reviewRecords } from "./review-record";

export interface Candidate {
  id: string;
  name: string;
  present: boolean;
  /** Tasks the agent has in progress now. */
  load: number;
  /** From the journal: TaskReviewed events on tasks it owned. */
  accepted: number;
  reviewed: number;
}

export interface ScoredCandidate extends Candidate {
  successRate: number;
  score: number;
}

/** accepted ÷ reviewed; an agent nobody has reviewed yet starts at 0, with no credit it has not earned. */
export function successRate(candidate: Pick<Candidate, "accepted" | "reviewed">): number {
  return candidate.reviewed === 0 ? 0 : candidate.accepted / candidate.reviewed;
}

export function scoreOf(candidate: Candidate): number {
  return (candidate.present ? 1 : 0) - candidate.load * 10 + successRate(candidate) * 10;
}

/** Highest score first; equal scores in name order, so the outcome never depends on row order. */
export function rankCandidates(candidates: Candidate[]): ScoredCandidate[] {
  return candidates.map((c) => ({ ...c, successRate: successRate(c), score: scoreOf(c) })).sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The agents present now (seen within the presence window), with their load and their record,
 * all read from the database: the formula has no input a prompt could sway.
 */
export async function presentAgents(db: Executor, now: Date): Promise<Candidate[]> {
  const horizon = new Date(now.getTime() - PRESENCE_WINDOW_MS);
  const agents = await db
    .select({ id: principals.id, name: principals.name })
    .from(principals)
    .where(and(eq(principals.kind, "agent"), sql`${principals.lastSeenAt} >= ${horizon.toISOString()}::timestamptz`));
  if (agents.length === 0) return [];
  const ids = agents.map((a) => a.id);
  const loads = await db
    .select({ ownerId: tasks.ownerId, load: sql<number>`count(*)::int` })
    .from(tasks)
    .where(and(eq(tasks.status, "in_progress"), inArray(tasks.ownerId, ids)))
    .groupBy(tasks.ownerId);
  const loadOf = new Map(loads.map((l) => [l.ownerId, l.load]));
  const records = await reviewRecords(db, ids);
  return agents.map((a) => ({
    ...a,
    present: true,
    load: loadOf.get(a.id) ?? 0,
    accepted: records.get(a.id)?.accepted ?? 0,
    reviewed: records.get(a.id)?.reviewed ?? 0,
  }));
}

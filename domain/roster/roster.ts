// The roster with the numbers that matter per agent: presence, role, current lease, load, success
// rate (accepted ÷ reviewed, from the journal), spend and budget left (from the bill).
import { and, asc, eq, inArray } from "drizzle-orm";
import { tasks } from "../../db/schema";
import type { Db, Executor } from "../../db/client";
import { type AgentBill, readAgentSpend } from "../bill/agent-spend";
import type { PriceMap } from "../bill/prices";
import type { Clock } from "../clock";
import { listPrincipals, type RosterEntry } from "../principals/list-principals";
import { reviewRecords } from "../tasks/review-record";
import { stallsAt } from "../tasks/lease";

export interface Lease {
  taskId: string;
  number: number;
  title: string;
  leaseExpiresAt: string | null;
  /** Since when its holder has been stalled (silent over half the lease); null while it is not. */
  stalledSince: string | null;
}

export interface AgentStats {
  /** Tasks in progress now. */
  load: number;
  /** The in-progress task whose lease ends first. */
  lease: Lease | null;
  /** Holding a lease with no heartbeat or output for over half of it (the earliest such lease). */
  stalled: boolean;
  stalledSince: string | null;
  accepted: number;
  reviewed: number;
  /** accepted ÷ reviewed; null before any review. */
  successRate: number | null;
  tokens: number;
  cost: number;
  unpricedTokens: number;
  /** Of the tokens, what scripted runs estimated: no model was called (domain/bill/prices.ts). */
  simulatedTokens: number;
  runs: number;
  allowance: number | null;
  budgetLeft: number | null;
  exhausted: boolean;
}

/** A roster row: everyone's presence; agents also carry their numbers. */
export type RosterRow = RosterEntry & Partial<AgentStats>;
/** An agent with all its numbers (its own page). */
export type AgentRow = RosterEntry & AgentStats;

type Work = Pick<AgentStats, "load" | "lease" | "stalled" | "stalledSince" | "accepted" | "reviewed" | "successRate">;
type Spend = Pick<AgentStats, "tokens" | "cost" | "unpricedTokens" | "simulatedTokens" | "runs" | "allowance" | "budgetLeft" | "exhausted">;

/** An agent's spend and budget from its line of the bill; no line: nothing spent, no budget. */
export function spendOf(bill: AgentBill | undefined): Spend {
  return {
    tokens: bill?.tokens ?? 0,
    cost: bill?.cost ?? 0,
    unpricedTokens: bill?.unpricedTokens ?? 0,
    simulatedTokens: bill?.simulatedTokens ?? 0,
    runs: bill?.runs ?? 0,
    allowance: bill?.allowance ?? null,
    budgetLeft: bill?.left ?? null,
    exhausted: bill?.exhausted ?? false,
  };
}

/** Load, leases (stalled as of `now`) and review record of some agents, from the board and the journal. */
export async function workOf(db: Executor, agentIds: string[], now: Date): Promise<Map<string, Work>> {
  const out = new Map<string, Work>();
  if (agentIds.length === 0) return out;
  // The board's leases and the journal's review record, read together (one round trip's wait, not two).
  const [working, records] = await Promise.all([
    db
      .select({
        ownerId: tasks.ownerId,
        id: tasks.id,
        number: tasks.number,
        title: tasks.title,
        leaseExpiresAt: tasks.leaseExpiresAt,
        leaseMinutes: tasks.leaseMinutes,
        updatedAt: tasks.updatedAt,
      })
      .from(tasks)
      .where(and(eq(tasks.status, "in_progress"), inArray(tasks.ownerId, agentIds)))
      .orderBy(asc(tasks.leaseExpiresAt)),
    reviewRecords(db, agentIds),
  ]);
  for (const id of agentIds) {
    const mine = working.filter((t) => t.ownerId === id);
    const r = records.get(id);
    const first = mine[0];
    const stalledSince = (t: (typeof mine)[number]) => {
      const at = stallsAt(t);
      return at && at <= now ? at.toISOString() : null;
    };
    const stalls = mine
      .map(stalledSince)
      .filter((at) => at !== null)
      .sort();
    out.set(id, {
      load: mine.length,
      lease: first
        ? { taskId: first.id, number: first.number, title: first.title, leaseExpiresAt: first.leaseExpiresAt?.toISOString() ?? null, stalledSince: stalledSince(first) }
        : null,
      stalled: stalls.length > 0,
      stalledSince: stalls[0] ?? null,
      accepted: r?.accepted ?? 0,
      reviewed: r?.reviewed ?? 0,
      successRate: r && r.reviewed > 0 ? r.accepted / r.reviewed : null,
    });
  }
  return out;
}

/** Everyone (humans too, for the room's presence), agents with their numbers. */
export async function listRoster(db: Db, clock: Clock, prices: PriceMap): Promise<RosterRow[]> {
  const people = await listPrincipals(db, clock);
  const agentIds = people.filter((p) => p.kind === "agent").map((p) => p.id);
  const [work, spend] = await Promise.all([workOf(db, agentIds, clock.now()), readAgentSpend(db, prices)]);
  return people.map((p) => {
    if (p.kind !== "agent") return p;
    const bill = spend.agents.find((a) => a.agentId === p.id);
    return {
      ...p,
      ...work.get(p.id)!,
      ...spendOf(bill),
    };
  });
}

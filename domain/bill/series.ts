// Spend over time, per agent: the snapshot's per-minute buckets (plus the tail's) binned into steps,
// priced per model, with every BudgetExhausted of the window as a marker.
import { and, desc, eq, gte, sql } from "drizzle-orm";
import { z } from "zod";
import { billBuckets, events } from "../../db/schema";
import type { Db } from "../../db/client";
import { costOf, SIMULATED_MODEL, type PriceConfig } from "./prices";
import { namesOf, readBillSnapshot } from "./read-snapshot";
import { payloadOf } from "../journal/payloads";

export const WINDOWS = { "15m": 15 * 60, "1h": 3600, "6h": 6 * 3600, "24h": 24 * 3600, "7d": 7 * 86400 } as const;
export type Window = keyof typeof WINDOWS;

export const billSeriesQuery = z.strictObject({
  window: z.enum(Object.keys(WINDOWS) as [Window, ...Window[]]).optional(),
  /** Also report the spend since this instant (the viewer's local midnight, for "today"). */
  since: z.iso.datetime({ offset: true }).optional(),
});
export type BillSeriesQuery = z.infer<typeof billSeriesQuery>;

/** At most this many points per chart; the step is a whole number of minutes. */
const POINTS = 60;

export interface SeriesPoint {
  t: string;
  /** Per agent id ('' for debits without one): tokens and cost in the step. */
  agents: Record<string, { tokens: number; cost: number }>;
}

export interface Exhaustion {
  eventId: number;
  t: string;
  agentId: string | null;
  agentName: string | null;
  runId: string | null;
  budgetId: string;
  allowance: number;
  budgetSpent: number;
}

export interface BillSeries {
  window: Window;
  from: string;
  to: string;
  stepSeconds: number;
  agents: { agentId: string; agentName: string | null }[];
  points: SeriesPoint[];
  exhaustions: Exhaustion[];
  /** Spend since `since`, when asked. */
  since: { from: string; tokens: number; cost: number; unpricedTokens: number; simulatedTokens: number } | null;
}

export async function billSeries(db: Db, config: PriceConfig, query: BillSeriesQuery, now: Date): Promise<BillSeries> {
  const window = query.window ?? "1h";
  const stepSeconds = Math.max(60, Math.ceil(WINDOWS[window] / POINTS / 60) * 60);
  const stepMs = stepSeconds * 1000;
  // Buckets are minutes: a short window has fewer, minute-long steps.
  const count = Math.ceil(WINDOWS[window] / stepSeconds);
  const to = new Date(Math.ceil(now.getTime() / stepMs) * stepMs);
  const from = new Date(to.getTime() - count * stepMs);
  const sinceAt = query.since ? new Date(query.since) : null;
  const earliest = sinceAt && sinceAt < from ? sinceAt : from;
  return readBillSnapshot(db, async (r) => {
    const rows = await r.tx.select().from(billBuckets).where(gte(billBuckets.minute, earliest));
    const buckets = [...rows.map((b) => ({ ...b, minute: b.minute.toISOString() })), ...r.tail.buckets.values()].filter((b) => new Date(b.minute) >= earliest);
    const points: SeriesPoint[] = Array.from({ length: count }, (_, i) => ({ t: new Date(from.getTime() + i * stepMs).toISOString(), agents: {} }));
    const since = sinceAt ? { from: sinceAt.toISOString(), tokens: 0, cost: 0, unpricedTokens: 0, simulatedTokens: 0 } : null;
    const seen = new Set<string>();
    for (const b of buckets) {
      const at = new Date(b.minute).getTime();
      const cost = costOf(config.prices, b.model, b);
      if (since && at >= sinceAt!.getTime()) {
        since.tokens += b.tokens;
        if (b.model === SIMULATED_MODEL) since.simulatedTokens += b.tokens;
        if (cost === null) since.unpricedTokens += b.tokens;
        else since.cost += cost;
      }
      const index = Math.floor((at - from.getTime()) / stepMs);
      if (index < 0 || index >= count) continue;
      const agents = points[index].agents;
      agents[b.agentId] ??= { tokens: 0, cost: 0 };
      const slot = agents[b.agentId];
      slot.tokens += b.tokens;
      slot.cost += cost ?? 0;
      seen.add(b.agentId);
    }
    const marks = await r.tx
      .select({ id: events.id, t: events.t, kind: events.kind, actor: events.actor, runId: events.runId, data: events.data })
      .from(events)
      .where(and(eq(events.kind, "BudgetExhausted"), gte(events.t, from), sql`${events.t} < ${to.toISOString()}::timestamptz`))
      .orderBy(desc(events.id))
      .limit(100);
    const names = await namesOf(r.tx, [...seen, ...marks.map((m) => m.actor ?? "")]);
    return {
      window,
      from: from.toISOString(),
      to: to.toISOString(),
      stepSeconds,
      agents: [...seen].sort().map((agentId) => ({ agentId, agentName: names.get(agentId) ?? null })),
      points,
      exhaustions: marks.map((m) => {
        const { result } = payloadOf(m, "BudgetExhausted");
        return {
          eventId: m.id,
          t: m.t.toISOString(),
          agentId: m.actor,
          agentName: m.actor ? (names.get(m.actor) ?? null) : null,
          runId: m.runId,
          budgetId: result.budgetId,
          allowance: result.allowance,
          budgetSpent: result.budgetSpent,
        };
      }),
      since,
    };
  });
}

// Spend and budget per agent, from a consistent read of the bill: what the bill's agent table, the
// roster and the agent page show.
import { count, inArray, isNotNull } from "drizzle-orm";
import { billRuns, principals } from "../../db/schema";
import type { Db } from "../../db/client";
import { emptyDelta, mergeBill } from "./bill-fold";
import { agentAllowance, budgetView, emptyView, lineViews, type BudgetView, type LineView } from "./line-views";
import type { PriceMap } from "./prices";
import { loadBudgets, loadLines, namesOf, readBillSnapshot, type BillRead } from "./read-snapshot";

export interface AgentBill extends LineView {
  agentId: string;
  agentName: string | null;
  role: string | null;
  /** Runs the agent has started (or debited in). */
  runs: number;
  /**
   * Its own allowance, for work outside flights: its top-level budgets together, and what was spent of
   * them. A run in a flight draws on the flight's budget instead, so `tokens` (all it spent) may exceed it.
   */
  allowance: number | null;
  budgetSpent: number;
  left: number | null;
  exhausted: boolean;
}

/** Runs per agent: the snapshot's count, plus runs the tail is the first to name. */
async function countRuns(r: BillRead): Promise<Map<string, number>> {
  const rows = await r.tx.select({ agentId: billRuns.agentId, runs: count() }).from(billRuns).where(isNotNull(billRuns.agentId)).groupBy(billRuns.agentId);
  const counts = new Map(rows.map((row) => [row.agentId!, row.runs]));
  const tailIds = [...r.tail.runs.keys()];
  const known = tailIds.length ? await r.tx.select({ runId: billRuns.runId }).from(billRuns).where(inArray(billRuns.runId, tailIds)) : [];
  const seen = new Set(known.map((k) => k.runId));
  for (const run of r.tail.runs.values()) {
    if (run.agentId && !seen.has(run.runId)) counts.set(run.agentId, (counts.get(run.agentId) ?? 0) + 1);
  }
  return counts;
}

/** Every agent that spent or holds a budget, and every budget, within one read. */
export async function agentBills(r: BillRead, prices: PriceMap): Promise<{ agents: AgentBill[]; budgets: BudgetView[]; models: Map<string, LineView> }> {
  const base = emptyDelta();
  // Pipelined on the transaction's connection; each fills its own keys of `base`.
  await Promise.all([loadLines(r.tx, base, "agent"), loadLines(r.tx, base, "model"), loadBudgets(r.tx, base)]);
  mergeBill(base, r.tail);
  const lines = lineViews(base, "agent", prices);
  const owners = [...base.budgets.values()].map((b) => b.ownerId).filter((id): id is string => id !== null);
  const agentIds = [...new Set([...lines.keys(), ...owners])];
  const names = await namesOf(r.tx, agentIds);
  const budgets = [...base.budgets.values()].sort((a, b) => a.firstEventId - b.firstEventId).map((b) => budgetView(b, names));
  const known = agentIds.filter((id) => names.has(id));
  const kinds = known.length ? await r.tx.select({ id: principals.id, kind: principals.kind, role: principals.role }).from(principals).where(inArray(principals.id, known)) : [];
  const roleOf = new Map(kinds.filter((p) => p.kind === "agent").map((p) => [p.id, p.role]));
  // Quorum's own principal holds the flights' budgets: they are the flights' lines, not an agent's.
  const system = new Set(kinds.filter((p) => p.kind === "system").map((p) => p.id));
  const runCounts = await countRuns(r);
  const agents = agentIds
    .filter((id) => !system.has(id))
    .map((agentId): AgentBill => {
      const share = agentAllowance(budgets, agentId);
      return {
        ...(lines.get(agentId) ?? emptyView()),
        agentId,
        agentName: names.get(agentId) ?? null,
        role: roleOf.get(agentId) ?? null,
        runs: runCounts.get(agentId) ?? 0,
        allowance: share.allowance,
        budgetSpent: share.spent,
        left: share.left,
        exhausted: share.exhausted,
      };
    });
  agents.sort((a, b) => b.tokens - a.tokens || (a.agentName ?? a.agentId).localeCompare(b.agentName ?? b.agentId));
  return { agents, budgets, models: lineViews(base, "model", prices) };
}

/** Just the agents' spend and budgets (the roster's columns). */
export function readAgentSpend(db: Db, prices: PriceMap): Promise<{ agents: AgentBill[]; budgets: BudgetView[] }> {
  return readBillSnapshot(db, (r) => agentBills(r, prices));
}

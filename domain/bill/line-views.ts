// Turns the fold's per-model lines into what the bill shows: tokens and money per key, and budget lines.
import { addLine, emptyLine, type BillDelta, type BillLine, type BudgetDelta, type LineScope } from "./bill-fold";
import { budgetLine, type BudgetLine } from "./bill";
import { addCost, noCost, type Cost, type PriceMap } from "./prices";

export type LineView = BillLine & Cost;

export const emptyView = (): LineView => ({ ...emptyLine(), ...noCost() });

/** Tokens and cost per key of one scope, summed over models. */
export function lineViews(delta: BillDelta, scope: LineScope, prices: PriceMap): Map<string, LineView> {
  const out = new Map<string, LineView>();
  for (const line of delta.lines.values()) {
    if (line.scope !== scope) continue;
    let view = out.get(line.key);
    if (!view) {
      view = emptyView();
      out.set(line.key, view);
    }
    addLine(view, line);
    addCost(view, prices, line.model, line);
  }
  return out;
}

export function sumViews(views: Iterable<LineView>): LineView {
  const total = emptyView();
  for (const v of views) {
    addLine(total, v);
    total.cost += v.cost;
    total.cachedCost += v.cachedCost;
    total.unpricedTokens += v.unpricedTokens;
    total.simulatedTokens += v.simulatedTokens;
  }
  return total;
}

export interface BudgetView extends BudgetLine {
  ownerName: string | null;
  /** spent ÷ allowance, or null without an allowance. */
  used: number | null;
}

export function budgetView(b: BudgetDelta, names: Map<string, string>): BudgetView {
  const line = budgetLine(b);
  return { ...line, ownerName: b.ownerId ? (names.get(b.ownerId) ?? null) : null, used: line.allowance ? line.spent / line.allowance : line.allowance === 0 ? 1 : null };
}

/** An agent's share of the budgets: the ones it owns that are not sub-budgets of another it owns. */
export function agentAllowance(budgets: BudgetView[], agentId: string): { allowance: number | null; spent: number; left: number | null; exhausted: boolean } {
  const owned = budgets.filter((b) => b.ownerId === agentId);
  const ownedIds = new Set(owned.map((b) => b.budgetId));
  const tops = owned.filter((b) => !b.parentId || !ownedIds.has(b.parentId));
  if (tops.length === 0) return { allowance: null, spent: 0, left: null, exhausted: false };
  const allowance = tops.every((b) => b.allowance !== null) ? tops.reduce((n, b) => n + b.allowance!, 0) : null;
  const spent = tops.reduce((n, b) => n + b.spent, 0);
  return { allowance, spent, left: allowance === null ? null : allowance - spent, exhausted: tops.some((b) => b.exhausted) };
}

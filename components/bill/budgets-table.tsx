// Every budget as a tree (sub-budgets under their parent), with what is left, and the models with their prices.
import { BudgetBar } from "./budget-bar";
import { CachedMoney, Money, SelfReported } from "./agent-table";
import { formatTokens } from "./format";
import type { BillView, BudgetView } from "./types";

function ordered(budgets: BudgetView[]): { budget: BudgetView; depth: number }[] {
  const known = new Set(budgets.map((b) => b.budgetId));
  const out: { budget: BudgetView; depth: number }[] = [];
  const visit = (parent: string | null, depth: number) => {
    for (const b of budgets) {
      const isRoot = b.parentId === null || !known.has(b.parentId);
      if ((parent === null && isRoot) || (parent !== null && b.parentId === parent)) {
        out.push({ budget: b, depth });
        visit(b.budgetId, depth + 1);
      }
    }
  };
  visit(null, 0);
  return out;
}

export function BudgetsTable({ bill }: { bill: BillView }) {
  if (bill.budgets.length === 0) return <p className="text-sm text-neutral-500">No budgets yet: the team harness funds each agent when it starts.</p>;
  return (
    <ul className="divide-y divide-neutral-100 rounded-lg border border-neutral-200 dark:divide-neutral-900 dark:border-neutral-800" data-testid="budgets">
      {ordered(bill.budgets).map(({ budget, depth }) => (
        <li key={budget.budgetId} className="grid grid-cols-[1fr_14rem] items-center gap-4 px-3 py-2 text-sm">
          <span style={{ paddingLeft: `${depth * 1.25}rem` }} className="truncate">
            {depth > 0 && (
              <span className="text-neutral-400" aria-hidden>
                ↳{" "}
              </span>
            )}
            <span className="font-medium">{budget.label || budget.budgetId.slice(0, 8)}</span>
            <span className="text-neutral-500"> · {budget.ownerName ?? "unknown owner"}</span>
            {depth > 0 && <span className="sr-only"> (sub-budget)</span>}
          </span>
          <BudgetBar allowance={budget.allowance} spent={budget.spent} exhausted={budget.exhausted} label={budget.label || "budget"} />
        </li>
      ))}
    </ul>
  );
}

export function ModelsTable({ bill }: { bill: BillView }) {
  if (bill.models.length === 0) return null;
  return (
    <table className="stack-table w-full text-sm" data-testid="bill-models">
      <thead>
        <tr className="text-left text-xs text-neutral-500 dark:text-neutral-400">
          <th className="py-1 font-medium">Model</th>
          <th className="py-1 text-right font-medium">Tokens</th>
          <th className="py-1 text-right font-medium">Cached</th>
          <th className="py-1 text-right font-medium">Cost</th>
          <th className="py-1 pl-4 font-medium">Price per 1M (in / cached / out)</th>
        </tr>
      </thead>
      <tbody>
        {bill.models.map((m) => (
          <tr key={m.model} className="border-t border-neutral-100 dark:border-neutral-900">
            <td data-label="Model" className="py-1 text-xs">
              <span className="font-mono">{m.model}</span> <SelfReported line={m} />
            </td>
            <td data-label="Tokens" className="py-1 text-right tabular-nums">
              {formatTokens(m.tokens)}
            </td>
            <td data-label="Cached" className="py-1 text-right tabular-nums" data-testid="model-cached" data-tokens={m.cachedTokens}>
              {formatTokens(m.cachedTokens)}
              {m.cachedTokens > 0 && (
                <span className="block text-xs text-neutral-500">
                  <CachedMoney line={m} currency={bill.currency} />
                </span>
              )}
            </td>
            <td data-label="Cost" className="py-1 text-right tabular-nums">
              <Money line={m} currency={bill.currency} />
            </td>
            <td data-label="Price per 1M (in / cached / out)" className="py-1 pl-4 text-xs tabular-nums text-neutral-600 dark:text-neutral-300">
              {m.price ? `${m.price.input} / ${m.cachedRate} / ${m.price.output} ${bill.currency}` : "no price — add it to QUORUM_PRICES"}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

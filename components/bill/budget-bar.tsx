// A budget as a bar: accent while there is room, amber from 75 % used, red from 90 % and when exhausted.
import { budgetLevel, formatPercent, formatTokens } from "./format";

const FILL = { ok: "bg-accent-500", warn: "bg-amber-500", danger: "bg-red-600" } as const;
const TEXT = { ok: "text-neutral-600 dark:text-neutral-300", warn: "text-amber-700 dark:text-amber-400", danger: "text-red-700 dark:text-red-400" } as const;

export function BudgetBar({ allowance, spent, exhausted = false, label }: { allowance: number | null; spent: number; exhausted?: boolean; label?: string }) {
  if (allowance === null) return <span className="text-xs text-neutral-500 dark:text-neutral-400">no budget</span>;
  const used = allowance === 0 ? 1 : spent / allowance;
  const level = budgetLevel(used, exhausted);
  const left = allowance - spent;
  const words = exhausted || left <= 0 ? "exhausted" : `${formatTokens(left)} left`;
  return (
    <div className="min-w-32" data-testid="budget-bar" data-level={level}>
      {/* A native meter for assistive technology; the bar below draws it (a styled <meter> renders differently per browser). */}
      <meter
        className="sr-only"
        min={0}
        max={allowance}
        value={Math.min(spent, allowance)}
        aria-label={`${label ?? "budget"}: ${formatPercent(Math.min(used, 1))} used, ${words}`}
      />
      <div className="h-2 overflow-hidden rounded-full bg-neutral-200 dark:bg-neutral-800" aria-hidden="true">
        <div className={`h-full rounded-full ${FILL[level]}`} style={{ width: `${Math.min(used, 1) * 100}%` }} />
      </div>
      <div className={`mt-0.5 flex justify-between gap-2 text-[11px] tabular-nums ${TEXT[level]}`}>
        <span>
          {level === "danger" ? "⚠ " : ""}
          {words}
        </span>
        <span className="text-neutral-500 dark:text-neutral-400">of {formatTokens(allowance)}</span>
      </div>
    </div>
  );
}

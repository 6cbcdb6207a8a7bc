// The newest BudgetExhausted in view, said plainly: who ran out, when, and where the halted run is.
import Link from "next/link";
import { formatTokens } from "./format";
import type { BillSeries } from "./types";
import { RelativeTime } from "../time";

export function ExhaustionAlert({ series }: { series: BillSeries | undefined }) {
  const latest = series?.exhaustions[0];
  return (
    <div aria-live="polite">
      {latest && (
        <div
          role="alert"
          className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-red-300 bg-red-50 px-4 py-2 text-sm text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
          data-testid="exhaustion-alert"
        >
          <strong>⛔ Budget exhausted</strong>
          <span>
            {latest.agentName ?? "An agent"} reached {formatTokens(latest.budgetSpent)} of {formatTokens(latest.allowance)} tokens <RelativeTime iso={latest.t} className="" />
            {"; its run halted at a turn boundary and resumes when the budget is raised."}
          </span>
          {latest.runId && (
            <Link href={`/journal?run=${encodeURIComponent(latest.runId)}&view=timeline`} className="underline">
              Open the run
            </Link>
          )}
          {series.exhaustions.length > 1 && <span className="text-xs">({series.exhaustions.length} in this window)</span>}
        </div>
      )}
    </div>
  );
}

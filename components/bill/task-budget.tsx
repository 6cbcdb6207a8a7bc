"use client";
// A flight task's share of its flight's allowance, on the task's page: what it spent, what is left, whether
// its run halted on it, and a Top up — live, like the Bill.
import { BudgetBar } from "./budget-bar";
import { formatTokens } from "./format";
import { TopUp } from "./top-up";
import { useBillFlights } from "./use-bill";

export function TaskBudget({ taskId }: { taskId: string }) {
  const flights = useBillFlights();
  const flight = flights.data?.items.find((f) => f.tasks.some((t) => t.id === taskId));
  const task = flight?.tasks.find((t) => t.id === taskId);
  if (!flight || !task?.budget) return null;
  const budget = task.budget;
  return (
    <section aria-label="Budget" className="space-y-2 border-b border-neutral-200 p-3 dark:border-neutral-800" data-testid="task-budget">
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-xs font-semibold tracking-wide text-neutral-600 uppercase dark:text-neutral-300">Budget</h2>
        <TopUp budget={budget} what={`task #${task.number}`} parent={`flight ${flight.number}`} />
      </div>
      <BudgetBar allowance={budget.allowance} spent={budget.spent} exhausted={budget.exhausted} label={`task #${task.number}'s budget`} />
      <p className="text-xs text-neutral-600 dark:text-neutral-300">
        Its share of flight {flight.number}&apos;s allowance: {formatTokens(budget.spent)} of {formatTokens(budget.allowance)} tokens spent by the runs on it.
        {budget.exhausted && " Its run halted when the share ran out; top it up, then resume the run."}
      </p>
    </section>
  );
}

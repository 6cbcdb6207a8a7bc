"use client";
// The Bill page: spend over time stacked by agent, the per-agent table with budgets, budgets, models and runs — all live.
import { useState } from "react";
import { AgentTable, Money } from "./agent-table";
import { BudgetsTable, ModelsTable } from "./budgets-table";
import { ExhaustionAlert } from "./exhaustion-alert";
import { FlightBudgets } from "./flights-table";
import { formatTokens } from "./format";
import { RunsTable } from "./runs-table";
import { SpendChart } from "./spend-chart";
import type { SeriesWindow } from "./types";
import { useBill, useBillSeries } from "./use-bill";

const WINDOWS: SeriesWindow[] = ["15m", "1h", "6h", "24h", "7d"];
const toggle = (on: boolean) =>
  `rounded px-2 py-0.5 text-xs ${on ? "bg-accent-600 text-white" : "text-neutral-600 hover:bg-neutral-100 dark:text-neutral-300 dark:hover:bg-neutral-800"}`;

function Section({ title, children, aside }: { title: string; children: React.ReactNode; aside?: React.ReactNode }) {
  return (
    <section className="space-y-2" aria-label={title}>
      <div className="flex items-center justify-between gap-4">
        <h2 className="text-sm font-semibold">{title}</h2>
        {aside}
      </div>
      {children}
    </section>
  );
}

export function BillView() {
  const [range, setRange] = useState<SeriesWindow>("15m");
  const [unit, setUnit] = useState<"tokens" | "cost">("tokens");
  const bill = useBill();
  const series = useBillSeries(range);
  if (bill.isPending) {
    return (
      <div className="space-y-4 p-6" aria-busy>
        <div className="h-16 animate-pulse rounded-lg bg-neutral-100 dark:bg-neutral-900" />
        <div className="h-56 animate-pulse rounded-lg bg-neutral-100 dark:bg-neutral-900" />
        <div className="h-40 animate-pulse rounded-lg bg-neutral-100 dark:bg-neutral-900" />
      </div>
    );
  }
  if (bill.isError) return <p className="p-6 text-sm text-red-600">Could not load the bill: {bill.error.message}. It is folded from the journal; reload to try again.</p>;
  const b = bill.data;
  const priced = Object.keys(b.prices).length > 0;
  return (
    <div className="h-full overflow-y-auto">
      <div className="mx-auto max-w-6xl space-y-6 px-6 py-4">
        <header className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <h1 className="text-lg font-semibold">Bill</h1>
            <p className="text-xs text-neutral-500 dark:text-neutral-400">
              Folded from {b.asOf.snapshotEvents + b.asOf.tailEvents} spend, budget and run events in the journal; updates as agents spend.
            </p>
          </div>
          <dl className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
            <div>
              <dt className="text-xs text-neutral-500">Model tokens</dt>
              <dd className="text-lg font-semibold tabular-nums" data-testid="bill-total" data-tokens={b.total.tokens - b.total.simulatedTokens}>
                {formatTokens(b.total.tokens - b.total.simulatedTokens)}
              </dd>
            </div>
            {b.total.simulatedTokens > 0 && (
              <div title="Scripted runs: no model was called, their tokens are estimates. They count against budgets so a scripted flight exercises them, never as money.">
                <dt className="text-xs text-neutral-500">Simulated</dt>
                <dd className="text-lg font-semibold text-neutral-500 tabular-nums" data-testid="bill-simulated" data-tokens={b.total.simulatedTokens}>
                  {formatTokens(b.total.simulatedTokens)}
                </dd>
              </div>
            )}
            <div>
              <dt className="text-xs text-neutral-500">Cost</dt>
              <dd className="text-lg font-semibold tabular-nums">
                <Money line={b.total} currency={b.currency} />
              </dd>
            </div>
            <div title="The flights not merged or closed: what they were given, and what is left of it">
              <dt className="text-xs text-neutral-500">Open flights' allowance left</dt>
              <dd className="text-lg font-semibold tabular-nums" data-testid="hub-left" data-tokens={b.hub.left}>
                {b.hub.openFlights === 0 ? "no open flight" : `${formatTokens(b.hub.left)} of ${formatTokens(b.hub.allowance)}`}
              </dd>
            </div>
          </dl>
        </header>
        {b.pricesProblem && (
          <p className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200">
            {b.pricesProblem} — costs are not shown.
          </p>
        )}
        {!priced && !b.pricesProblem && (
          <p className="text-xs text-neutral-500">No prices configured: set QUORUM_PRICES (per million tokens, per model) to see money beside tokens.</p>
        )}
        <ExhaustionAlert series={series.data} />
        <Section
          title="Spend over time"
          aside={
            <div className="flex items-center gap-3">
              <fieldset className="flex gap-1">
                <legend className="sr-only">Unit</legend>
                <button type="button" className={toggle(unit === "tokens")} aria-pressed={unit === "tokens"} onClick={() => setUnit("tokens")}>
                  tokens
                </button>
                <button type="button" className={toggle(unit === "cost")} aria-pressed={unit === "cost"} onClick={() => setUnit("cost")} disabled={!priced}>
                  {b.currency}
                </button>
              </fieldset>
              <fieldset className="flex gap-1">
                <legend className="sr-only">Window</legend>
                {WINDOWS.map((w) => (
                  <button key={w} type="button" className={toggle(range === w)} aria-pressed={range === w} onClick={() => setRange(w)}>
                    {w}
                  </button>
                ))}
              </fieldset>
            </div>
          }
        >
          {series.isPending && <div className="h-56 animate-pulse rounded-lg bg-neutral-100 dark:bg-neutral-900" aria-busy />}
          {series.isError && <p className="text-sm text-red-600">Could not load the chart: {series.error.message}</p>}
          {series.data && <SpendChart series={series.data} unit={unit} currency={b.currency} />}
        </Section>
        <Section title="Per flight and task">
          <FlightBudgets />
        </Section>
        <Section title="Per agent">
          <AgentTable bill={b} />
        </Section>
        <div className="grid gap-6 lg:grid-cols-2">
          <Section title="Budgets">
            <BudgetsTable bill={b} />
          </Section>
          <Section title="Models">
            <ModelsTable bill={b} />
            {b.models.length === 0 && <p className="text-sm text-neutral-500">No model has been called yet.</p>}
          </Section>
        </div>
        <Section title="Runs">
          <RunsTable currency={b.currency} />
        </Section>
      </div>
    </div>
  );
}

"use client";
// The Bill per flight and per task: each flight's allowance and what its plan shared out to its tasks,
// what each spent and has left, and which halted on an empty share — live, with a Top up on each.
// Columns are lists (FLIGHT_COLUMNS, TASK_COLUMNS): a new column is one entry in each.
import Link from "next/link";
import type { ReactNode } from "react";
import { formatTokens } from "./format";
import { TopUp } from "./top-up";
import type { BudgetLine, FlightTaskView, FlightView } from "./types";
import { useBillFlights } from "./use-bill";

export interface Column<Row> {
  label: string;
  align?: "right";
  cell: (row: Row) => ReactNode;
}

/** The flights whose task tables start open; older ones are a click away. */
const OPEN_FLIGHTS = 3;

const th = "px-3 py-2 text-left text-xs font-medium text-neutral-500 dark:text-neutral-400";
const td = "px-3 py-2 tabular-nums";

function BudgetState({ line }: { line: BudgetLine }) {
  const used = line.allowance === 0 ? 1 : line.spent / line.allowance;
  const [word, tone] = line.exhausted
    ? ["halted: out of tokens", "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300"]
    : used >= 0.75
      ? ["running low", "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200"]
      : ["has room", "bg-neutral-100 text-neutral-700 dark:bg-neutral-800 dark:text-neutral-200"];
  return (
    <span className={`rounded px-1.5 py-0.5 text-xs whitespace-nowrap ${tone}`} data-testid="budget-state" data-exhausted={line.exhausted}>
      {word}
    </span>
  );
}

function Models({ line }: { line: BudgetLine }) {
  if (line.byModel.length === 0) return <span className="text-neutral-500">none yet</span>;
  return <span className="text-xs">{line.byModel.map((m) => `${m.model} ${formatTokens(m.tokens)}`).join(" · ")}</span>;
}

/** The columns every budget line shares, flight or task. */
function budgetColumns<Row>(lineOf: (row: Row) => BudgetLine, extra: Column<Row>[] = []): Column<Row>[] {
  return [
    { label: "Allowance", align: "right", cell: (r) => formatTokens(lineOf(r).allowance) },
    { label: "Spent", align: "right", cell: (r) => formatTokens(lineOf(r).spent) },
    { label: "Remaining", align: "right", cell: (r) => formatTokens(lineOf(r).remaining) },
    ...extra,
    { label: "Status", cell: (r) => <BudgetState line={lineOf(r)} /> },
    { label: "Tokens per model", cell: (r) => <Models line={lineOf(r)} /> },
  ];
}

type FlightRow = FlightView & { budget: BudgetLine };
type TaskRow = FlightTaskView & { budget: BudgetLine; flight: FlightRow };

const FLIGHT_COLUMNS: Column<FlightRow>[] = [
  {
    label: "Flight",
    cell: (f) => (
      <span className="min-w-0 text-left">
        <span className="font-medium">Flight {f.number}</span> <span className="text-neutral-600 dark:text-neutral-300">{f.goal}</span>
      </span>
    ),
  },
  ...budgetColumns<FlightRow>((f) => f.budget, [{ label: "Shared to tasks", align: "right", cell: (f) => formatTokens(f.budget.promised) }]),
  { label: "Top up", cell: (f) => <TopUp budget={f.budget} what={`flight ${f.number}`} /> },
];

const TASK_COLUMNS: Column<TaskRow>[] = [
  {
    label: "Task",
    cell: (t) => (
      <Link href={`/board/${t.number}`} className="min-w-0 text-left hover:underline">
        <span className="font-medium">#{t.number}</span> {t.title}
      </Link>
    ),
  },
  ...budgetColumns<TaskRow>((t) => t.budget),
  { label: "Top up", cell: (t) => <TopUp budget={t.budget} what={`task #${t.number}`} parent={`flight ${t.flight.number}`} /> },
];

export function BudgetTable<Row>({ rows, columns, keyOf, label, testId }: { rows: Row[]; columns: Column<Row>[]; keyOf: (row: Row) => string; label: string; testId: string }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-neutral-200 dark:border-neutral-800">
      <table className="stack-table w-full text-sm" data-testid={testId} aria-label={label}>
        <thead className="bg-neutral-50 dark:bg-neutral-900">
          <tr>
            {columns.map((c) => (
              <th key={c.label} className={`${th} ${c.align === "right" ? "text-right" : ""}`}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody aria-live="polite">
          {rows.map((row) => (
            <tr key={keyOf(row)} className="border-t border-neutral-100 dark:border-neutral-900" data-testid={`${testId}-row`}>
              {columns.map((c) => (
                <td key={c.label} data-label={c.label} className={`${td} ${c.align === "right" ? "text-right" : ""}`}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function FlightBudgets() {
  const flights = useBillFlights();
  if (flights.isPending) return <div className="h-24 animate-pulse rounded-lg bg-neutral-100 dark:bg-neutral-900" aria-busy />;
  if (flights.isError) return <p className="text-sm text-red-600">Could not load the flights: {flights.error.message}. Reload to try again.</p>;
  const funded = flights.data.items.filter((f): f is FlightRow => f.budget !== null);
  if (funded.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-neutral-300 p-4 text-sm text-neutral-600 dark:border-neutral-700 dark:text-neutral-300">
        No flight yet. A flight gets an allowance when it starts; its plan shares it out to its tasks, and each shows here with what it spent.
      </p>
    );
  }
  return (
    <div className="space-y-4">
      <BudgetTable rows={funded} columns={FLIGHT_COLUMNS} keyOf={(f) => f.id} label="Flights" testId="bill-flights" />
      {funded.map((flight, i) => {
        const rows = flight.tasks.filter((t): t is FlightTaskView & { budget: BudgetLine } => t.budget !== null).map((t) => ({ ...t, flight }));
        return (
          <details key={flight.id} open={i < OPEN_FLIGHTS} className="space-y-2">
            <summary className="cursor-pointer text-sm font-medium">
              Flight {flight.number}: its tasks{" "}
              <span className="font-normal text-neutral-600 dark:text-neutral-300">
                ({formatTokens(flight.budget.promised)} of {formatTokens(flight.budget.allowance)} shared out; the rest is kept for planning and the suite)
              </span>
            </summary>
            {rows.length === 0 ? (
              <p className="text-sm text-neutral-600 dark:text-neutral-300">No plan yet: the orchestrator shares the allowance out when it records the plan.</p>
            ) : (
              <BudgetTable rows={rows} columns={TASK_COLUMNS} keyOf={(t) => t.id} label={`Flight ${flight.number} tasks`} testId="bill-flight-tasks" />
            )}
          </details>
        );
      })}
    </div>
  );
}

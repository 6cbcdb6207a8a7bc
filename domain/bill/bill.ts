// The bill: tokens per agent, per task, per run and per model, and what is left of each budget —
// a pure fold of BudgetDebited (and the budget and run events around it), projected from ./bill-fold.ts.
import { loadEventsOfKinds, type JournalRecord } from "../journal/load";
import type { Executor } from "../../db/client";
import { addLine, BILL_KINDS, emptyLine, foldBill, type BillDelta, type BillLine, type BudgetDelta } from "./bill-fold";
import type { RunStatus } from "../runs/run-events";

export { BILL_KINDS, type BillLine } from "./bill-fold";

export interface BudgetLine {
  budgetId: string;
  ownerId: string | null;
  parentId: string | null;
  label: string;
  /** Null when the budget's creation is not among the folded events. */
  allowance: number | null;
  /** Its own runs' debits and every descendant's. */
  spent: number;
  /** allowance − spent; negative by at most the last call of a run that crossed the line. */
  left: number | null;
  exhausted: boolean;
}

export interface Bill {
  total: BillLine;
  agents: (BillLine & { agentId: string; agentName: string | null })[];
  tasks: (BillLine & { taskId: string })[];
  runs: (BillLine & { runId: string; agentId: string | null; taskId: string | null; status: RunStatus | "running" })[];
  models: (BillLine & { model: string })[];
  budgets: BudgetLine[];
}

const byTokens = <T extends BillLine>(lines: Iterable<T>, key: (l: T) => string) => [...lines].sort((a, b) => b.tokens - a.tokens || key(a).localeCompare(key(b)));

export function budgetLine(b: Pick<BudgetDelta, "budgetId" | "ownerId" | "parentId" | "label" | "allowance" | "spent">): BudgetLine {
  return {
    budgetId: b.budgetId,
    ownerId: b.ownerId,
    parentId: b.parentId,
    label: b.label,
    allowance: b.allowance,
    spent: b.spent,
    left: b.allowance === null ? null : b.allowance - b.spent,
    exhausted: b.allowance !== null && b.spent >= b.allowance,
  };
}

/** Sums a delta's lines of one scope over models, by key. */
export function linesOf(delta: BillDelta, scope: "agent" | "task" | "run" | "model"): Map<string, BillLine> {
  const out = new Map<string, BillLine>();
  for (const line of delta.lines.values()) {
    if (line.scope !== scope) continue;
    let sum = out.get(line.key);
    if (!sum) {
      sum = emptyLine();
      out.set(line.key, sum);
    }
    addLine(sum, line);
  }
  return out;
}

/** The Bill a delta stands for (the whole of it: every task and run). */
export function projectBill(delta: BillDelta): Bill {
  const total = emptyLine();
  const models = linesOf(delta, "model");
  for (const line of models.values()) addLine(total, line);
  const runLines = linesOf(delta, "run");
  return {
    total,
    agents: byTokens(
      [...linesOf(delta, "agent")].map(([agentId, line]) => ({ agentId, agentName: delta.names.get(agentId) ?? null, ...line })),
      (l) => l.agentId,
    ),
    tasks: byTokens(
      [...linesOf(delta, "task")].map(([taskId, line]) => ({ taskId, ...line })),
      (l) => l.taskId,
    ),
    runs: byTokens(
      [...delta.runs.values()].map((r) => ({
        runId: r.runId,
        agentId: r.agentId,
        taskId: r.taskId,
        status: r.status ?? ("running" as const),
        ...(runLines.get(r.runId) ?? emptyLine()),
      })),
      (l) => l.runId,
    ),
    models: byTokens(
      [...models].map(([model, line]) => ({ model, ...line })),
      (l) => l.model,
    ),
    // In journal order: a parent is created before its children.
    budgets: [...delta.budgets.values()].sort((a, b) => a.firstEventId - b.firstEventId).map(budgetLine),
  };
}

export function bill(events: readonly JournalRecord[]): Bill {
  return projectBill(foldBill(events));
}

/** The whole bill from the journal, folded from scratch (./snapshot.ts keeps it as a snapshot). */
export async function loadBill(db: Executor): Promise<Bill> {
  return bill(await loadEventsOfKinds(db, BILL_KINDS));
}

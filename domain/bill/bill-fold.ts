// The bill's fold as a mergeable delta: sums per (agent|task|run|model, model), each run's end, each
// budget's allowance and spend, spend per minute. Folding A then B equals merging fold(A) with fold(B),
// which is what lets a snapshot be refreshed incrementally and a live tail be laid over it.
import { payloadOf } from "../journal/payloads";
import type { RunStatus } from "../runs/run-events";
import type { JournalRecord } from "../journal/load";

/** The kinds the bill reads; the partial index events_bill_settled_idx (migration 0036) lists the same. */
export const BILL_KINDS = ["BudgetDebited", "BudgetCreated", "BudgetAllowanceChanged", "RunStarted", "AgentFinished", "BudgetExhausted", "RunStopped", "UsageReported"];

export interface BillLine {
  tokens: number;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  calls: number;
  /** Calls whose usage the client had to estimate. */
  estimatedCalls: number;
  /** Of the tokens and calls, what outside agents reported themselves (UsageReported): Quorum did not measure it. */
  selfReportedTokens: number;
  selfReportedCalls: number;
}

export type LineScope = "agent" | "task" | "run" | "model";

export interface LineDelta extends BillLine {
  scope: LineScope;
  key: string;
  model: string;
  firstEventId: number;
  lastEventId: number;
}

export interface RunDelta {
  runId: string;
  agentId: string | null;
  taskId: string | null;
  /** How the run last ended in these events; null when none of them ends it. */
  status: RunStatus | null;
  /** When its RunStarted was journalled (ISO); null when these events do not hold it. */
  startedAt: string | null;
  firstEventId: number;
  lastEventId: number;
}

export interface BudgetDelta {
  budgetId: string;
  /** BudgetCreated is among these events: owner, parent and label are set. */
  created: boolean;
  ownerId: string | null;
  parentId: string | null;
  label: string;
  /** The allowance as last set in these events, or null when none sets it. */
  allowance: number | null;
  spent: number;
  firstEventId: number;
}

export interface BucketDelta {
  /** ISO time of the minute's start. */
  minute: string;
  agentId: string;
  model: string;
  tokens: number;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
}

export interface BillDelta {
  lines: Map<string, LineDelta>;
  runs: Map<string, RunDelta>;
  budgets: Map<string, BudgetDelta>;
  buckets: Map<string, BucketDelta>;
  /** Names of the agents as the events carried them (loaders join them). */
  names: Map<string, string | null>;
  /** Bill events folded. */
  events: number;
}

export const emptyLine = (): BillLine => ({
  tokens: 0,
  inputTokens: 0,
  outputTokens: 0,
  cachedTokens: 0,
  calls: 0,
  estimatedCalls: 0,
  selfReportedTokens: 0,
  selfReportedCalls: 0,
});

export function emptyDelta(): BillDelta {
  return { lines: new Map(), runs: new Map(), budgets: new Map(), buckets: new Map(), names: new Map(), events: 0 };
}

export function addLine(into: BillLine, from: BillLine): void {
  into.tokens += from.tokens;
  into.inputTokens += from.inputTokens;
  into.outputTokens += from.outputTokens;
  into.cachedTokens += from.cachedTokens;
  into.calls += from.calls;
  into.estimatedCalls += from.estimatedCalls;
  into.selfReportedTokens += from.selfReportedTokens;
  into.selfReportedCalls += from.selfReportedCalls;
}

/** The start of the event's minute, in ms. */
const minuteOf = (t: string | Date) => {
  const ms = typeof t === "string" ? Date.parse(t) : t.getTime();
  return ms - (((ms % 60_000) + 60_000) % 60_000);
};

function upsertRun(delta: BillDelta, e: JournalRecord): RunDelta {
  let run = delta.runs.get(e.runId!);
  if (!run) {
    run = { runId: e.runId!, agentId: e.actor, taskId: e.taskId, status: null, startedAt: null, firstEventId: e.id, lastEventId: e.id };
    delta.runs.set(e.runId!, run);
  }
  run.agentId ??= e.actor;
  run.taskId ??= e.taskId;
  run.firstEventId = Math.min(run.firstEventId, e.id);
  run.lastEventId = Math.max(run.lastEventId, e.id);
  return run;
}

function upsertBudget(delta: BillDelta, budgetId: string, eventId: number): BudgetDelta {
  let budget = delta.budgets.get(budgetId);
  if (!budget) {
    budget = { budgetId, created: false, ownerId: null, parentId: null, label: "", allowance: null, spent: 0, firstEventId: eventId };
    delta.budgets.set(budgetId, budget);
  }
  budget.firstEventId = Math.min(budget.firstEventId, eventId);
  return budget;
}

function debit(delta: BillDelta, scope: LineScope, key: string, model: string, usage: BillLine, eventId: number): void {
  const id = `${scope}\u0000${key}\u0000${model}`;
  let line = delta.lines.get(id);
  if (!line) {
    line = { scope, key, model, ...emptyLine(), firstEventId: eventId, lastEventId: eventId };
    delta.lines.set(id, line);
  }
  addLine(line, usage);
  line.firstEventId = Math.min(line.firstEventId, eventId);
  line.lastEventId = Math.max(line.lastEventId, eventId);
}

function bucket(delta: BillDelta, e: JournalRecord, model: string, usage: BillLine): void {
  const minute = minuteOf(e.t);
  const agentId = e.actor ?? "";
  const id = `${minute}\u0000${agentId}\u0000${model}`;
  let b = delta.buckets.get(id);
  if (!b) {
    b = { minute: new Date(minute).toISOString(), agentId, model, tokens: 0, inputTokens: 0, outputTokens: 0, cachedTokens: 0 };
    delta.buckets.set(id, b);
  }
  b.tokens += usage.tokens;
  b.inputTokens += usage.inputTokens;
  b.outputTokens += usage.outputTokens;
  b.cachedTokens += usage.cachedTokens;
}

/** One model call's usage as a line: measured by Quorum (BudgetDebited), or reported by the agent itself (UsageReported). */
function callUsage(d: { amount: number; inputTokens: number; outputTokens: number; cachedTokens: number }, how: { estimated?: boolean; selfReported: boolean }): BillLine {
  return {
    tokens: d.amount,
    inputTokens: d.inputTokens,
    outputTokens: d.outputTokens,
    cachedTokens: d.cachedTokens,
    calls: 1,
    estimatedCalls: how.estimated ? 1 : 0,
    selfReportedTokens: how.selfReported ? d.amount : 0,
    selfReportedCalls: how.selfReported ? 1 : 0,
  };
}

/** A call's spend on the model's line, its agent's, its task's and the minute's bucket. */
function spendOf(delta: BillDelta, e: JournalRecord, model: string, usage: BillLine): void {
  debit(delta, "model", model, model, usage, e.id);
  if (e.actor) {
    debit(delta, "agent", e.actor, model, usage, e.id);
    if (!delta.names.has(e.actor)) delta.names.set(e.actor, e.actorName ?? null);
  }
  if (e.taskId) debit(delta, "task", e.taskId, model, usage, e.id);
  bucket(delta, e, model, usage);
}

/** Folds bill events into a delta (a fresh one unless given); events of other kinds are ignored. */
export function foldBill(events: Iterable<JournalRecord>, delta: BillDelta = emptyDelta()): BillDelta {
  for (const e of events) {
    switch (e.kind) {
      case "BudgetDebited": {
        const d = payloadOf(e, "BudgetDebited");
        const usage = callUsage(d, { estimated: d.estimated, selfReported: false });
        spendOf(delta, e, d.model, usage);
        if (e.runId) {
          upsertRun(delta, e);
          debit(delta, "run", e.runId, d.model, usage, e.id);
        }
        for (const id of d.budgetIds ?? []) upsertBudget(delta, id, e.id).spent += d.amount;
        break;
      }
      case "UsageReported": {
        // An outside agent's own account of a call: on its line, its task's and its model's, never on a run or a budget.
        const d = payloadOf(e, "UsageReported");
        spendOf(delta, e, d.model, callUsage(d, { estimated: false, selfReported: true }));
        break;
      }
      case "BudgetCreated": {
        const d = payloadOf(e, "BudgetCreated");
        Object.assign(upsertBudget(delta, d.budgetId, e.id), { created: true, ownerId: d.ownerId, parentId: d.parentId, label: d.label, allowance: d.allowance });
        break;
      }
      case "BudgetAllowanceChanged": {
        const d = payloadOf(e, "BudgetAllowanceChanged");
        upsertBudget(delta, d.budgetId, e.id).allowance = d.allowance;
        break;
      }
      case "RunStarted":
        if (e.runId) upsertRun(delta, e).startedAt ??= new Date(e.t).toISOString();
        break;
      case "AgentFinished":
      case "BudgetExhausted":
      case "RunStopped":
        if (e.runId) upsertRun(delta, e).status = payloadOf(e, e.kind).result.status;
        break;
      default:
        continue;
    }
    delta.events += 1;
  }
  return delta;
}

/** Lays `later` (the fold of later events) over `into`, in place: sums add, the later end or allowance wins. */
export function mergeBill(into: BillDelta, later: BillDelta): BillDelta {
  for (const [id, line] of later.lines) {
    const mine = into.lines.get(id);
    if (!mine) into.lines.set(id, { ...line });
    else {
      addLine(mine, line);
      mine.firstEventId = Math.min(mine.firstEventId, line.firstEventId);
      mine.lastEventId = Math.max(mine.lastEventId, line.lastEventId);
    }
  }
  for (const [id, run] of later.runs) {
    const mine = into.runs.get(id);
    if (!mine) into.runs.set(id, { ...run });
    else {
      mine.agentId ??= run.agentId;
      mine.taskId ??= run.taskId;
      mine.status = run.status ?? mine.status;
      mine.startedAt ??= run.startedAt;
      mine.firstEventId = Math.min(mine.firstEventId, run.firstEventId);
      mine.lastEventId = Math.max(mine.lastEventId, run.lastEventId);
    }
  }
  for (const [id, budget] of later.budgets) {
    const mine = into.budgets.get(id);
    if (!mine) into.budgets.set(id, { ...budget });
    else {
      if (budget.created) Object.assign(mine, { created: true, ownerId: budget.ownerId, parentId: budget.parentId, label: budget.label });
      mine.allowance = budget.allowance ?? mine.allowance;
      mine.spent += budget.spent;
      mine.firstEventId = Math.min(mine.firstEventId, budget.firstEventId);
    }
  }
  for (const [id, b] of later.buckets) {
    const mine = into.buckets.get(id);
    if (!mine) into.buckets.set(id, { ...b });
    else {
      mine.tokens += b.tokens;
      mine.inputTokens += b.inputTokens;
      mine.outputTokens += b.outputTokens;
      mine.cachedTokens += b.cachedTokens;
    }
  }
  for (const [id, name] of later.names) if (!into.names.has(id) || into.names.get(id) === null) into.names.set(id, name);
  into.events += later.events;
  return into;
}

// What the detectors read, indexed once per diagnosis: each run's calls (dispatch, attempts, result), turns
// and ending; each task's submissions, verdicts and integrations; and how to name people and tasks.
import type { JournalRecord } from "../journal/load";
import { payloadOf } from "../journal/payloads";
import type { Observation } from "../runs/run-events";

/** The test tool's name, as the runtime records it (agents/tools/run-tests.ts). */
export const RUN_TESTS = "run_tests";

/** One tool call of a run, as the journal shows it: refused before dispatch when `dispatched` is null. */
export interface Call {
  runId: string;
  turn: number;
  callId: string;
  tool: string;
  /** The arguments as a stable string (keys sorted): two calls are the same step when tool and this agree. */
  args: string;
  writes: string | null;
  dispatched: JournalRecord | null;
  /** Every ToolReturned of the call (one per attempt) and the loop's retries, in order. */
  returned: JournalRecord[];
  retried: JournalRecord[];
}

export interface RunFacts {
  runId: string;
  actor: string | null;
  taskId: string | null;
  started: JournalRecord | null;
  /** The tools the run was given (its role's), when its RunStarted is in view. */
  tools: string[] | null;
  calls: Call[];
  /** Per turn, how many of the oldest steps its context dropped. */
  dropped: Map<number, { droppedSteps: number; event: JournalRecord }>;
  /** AgentFinished, RunStopped or BudgetExhausted: the latest ending. */
  ended: JournalRecord | null;
}

export interface Names {
  /** A principal's name ("someone" when nothing in view names it). */
  who(id: string | null | undefined): string;
  /** A task as "#12" ("a task" when nothing in view numbers it). */
  task(id: string | null | undefined): string;
}

/** Names the loader knows beyond the events (principals that never acted in view, tasks by number). */
export interface KnownNames {
  principals?: ReadonlyMap<string, string>;
  tasks?: ReadonlyMap<string, number>;
}

export interface Facts {
  events: readonly JournalRecord[];
  byId: ReadonlyMap<number, JournalRecord>;
  runs: ReadonlyMap<string, RunFacts>;
  /** Each task's events, in journal order. */
  tasks: ReadonlyMap<string, JournalRecord[]>;
  names: Names;
}

/** JSON with sorted keys, so the same arguments written in another order are the same step. */
function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function runOf(runs: Map<string, RunFacts>, e: JournalRecord): RunFacts {
  const runId = e.runId!;
  let run = runs.get(runId);
  if (!run) {
    run = { runId, actor: e.actor, taskId: e.taskId, started: null, tools: null, calls: [], dropped: new Map(), ended: null };
    runs.set(runId, run);
  }
  run.actor ??= e.actor;
  run.taskId ??= e.taskId;
  return run;
}

function callOf(run: RunFacts, e: JournalRecord, data: { callId: string; tool: string }, args: unknown, writes: string | null): Call {
  const turn = e.turn ?? 0;
  let call = run.calls.find((c) => c.turn === turn && c.callId === data.callId);
  if (!call) {
    call = { runId: run.runId, turn, callId: data.callId, tool: data.tool, args: stable(args), writes, dispatched: null, returned: [], retried: [] };
    run.calls.push(call);
  }
  return call;
}

const NUMBERED = new Set(["TaskCreated", "TaskClaimed", "TaskSubmitted", "TaskReviewed", "LeaseExpired", "TaskReopened", "TaskCancelled", "TaskReleased", "TaskOffered"]);

function namesOf(events: readonly JournalRecord[], known: KnownNames): Names {
  const people = new Map(known.principals);
  const numbers = new Map(known.tasks);
  for (const e of events) {
    if (e.actor && e.actorName && !people.has(e.actor)) people.set(e.actor, e.actorName);
    const number = (e.data as { number?: unknown } | null)?.number;
    if (e.taskId && NUMBERED.has(e.kind) && typeof number === "number" && !numbers.has(e.taskId)) numbers.set(e.taskId, number);
  }
  return {
    who: (id) => (id ? (people.get(id) ?? "someone") : "someone"),
    task: (id) => (id && numbers.has(id) ? `#${numbers.get(id)}` : "a task"),
  };
}

export function factsOf(events: readonly JournalRecord[], known: KnownNames = {}): Facts {
  const runs = new Map<string, RunFacts>();
  const tasks = new Map<string, JournalRecord[]>();
  for (const e of events) {
    if (e.taskId) {
      const history = tasks.get(e.taskId);
      if (history) history.push(e);
      else tasks.set(e.taskId, [e]);
    }
    if (!e.runId) continue;
    const run = runOf(runs, e);
    switch (e.kind) {
      case "RunStarted":
        run.started = e;
        run.tools = payloadOf(e, "RunStarted").tools?.map((t) => t.name) ?? null;
        break;
      case "ModelCalled": {
        const { context } = payloadOf(e, "ModelCalled");
        run.dropped.set(e.turn ?? 0, { droppedSteps: context?.droppedSteps ?? 0, event: e });
        break;
      }
      case "ToolDispatched": {
        const d = payloadOf(e, "ToolDispatched");
        callOf(run, e, d, d.args, d.writes).dispatched = e;
        break;
      }
      case "ToolRetried":
        callOf(run, e, payloadOf(e, "ToolRetried"), null, null).retried.push(e);
        break;
      case "ToolReturned":
        callOf(run, e, payloadOf(e, "ToolReturned"), null, null).returned.push(e);
        break;
      case "AgentFinished":
      case "RunStopped":
      case "BudgetExhausted":
        run.ended = e;
        break;
    }
  }
  return { events, byId: new Map(events.map((e) => [e.id, e])), runs, tasks, names: namesOf(events, known) };
}

/** What a call came back with in the end (its last attempt), or null while it has not returned. */
export function outcomeOf(call: Call): Observation | null {
  const last = call.returned.at(-1);
  return last ? payloadOf(last, "ToolReturned").observation : null;
}

/** A finished test run's exit code (null: the runner did not finish, or the call is no test run). */
export function exitCodeOf(call: Call): number | null {
  if (call.tool !== RUN_TESTS) return null;
  const outcome = outcomeOf(call);
  if (!outcome || outcome.is_error) return null;
  const code = (outcome.result as { exitCode?: unknown } | null)?.exitCode;
  return typeof code === "number" ? code : null;
}

/** The id a call is known by in the journal: its dispatch, else its first result. */
export function callEventId(call: Call): number {
  return (call.dispatched ?? call.returned[0] ?? call.retried[0]).id;
}

/** Runs in journal order of their first event. */
export function runsInOrder(facts: Facts): RunFacts[] {
  const first = (run: RunFacts) => run.started?.id ?? Math.min(...run.calls.map(callEventId), run.ended?.id ?? Number.MAX_SAFE_INTEGER);
  return [...facts.runs.values()].sort((a, b) => first(a) - first(b));
}

/** The run's verdict on itself, when it ended with one. */
export function finishedOf(run: RunFacts): { status: string; summary?: string; evidence?: string[] } | null {
  if (run.ended?.kind !== "AgentFinished") return null;
  return payloadOf(run.ended, "AgentFinished").result;
}

export const uniq = <T>(values: readonly T[]) => [...new Set(values)];

/**
 * Whether the work a task held at event `after` got past its gate: the first verdict on the task after it
 * is its approver's ACCEPT. The severity rule's "landed" for findings about one piece of a task's work
 * (./modes.ts); a REJECT first, or no verdict yet, is a cost.
 */
export function landedNext(facts: Facts, taskId: string | null, after: number): boolean {
  if (!taskId) return false;
  const verdict = (facts.tasks.get(taskId) ?? []).find((e) => e.id > after && e.kind === "TaskReviewed");
  return verdict !== undefined && payloadOf(verdict, "TaskReviewed").verdict === "accept";
}

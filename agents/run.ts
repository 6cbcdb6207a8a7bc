// Starts a run: journals RunStarted with everything a resume or a replay needs, then drives the loop.
import { randomBytes } from "node:crypto";
import type { Db } from "../db/client";
import { systemClock, type Clock } from "../domain/clock";
import { fail } from "../domain/errors";
import { emptyRunState } from "../domain/runs/resume-point";
import type { Observation, RunConfig, RunResult } from "../domain/runs/run-events";
import type { Principal } from "../domain/principal";
import { hubSecrets, redactValue } from "../domain/hub-secrets";
import { requireRunMayDraw } from "../domain/budgets/run-budget";
import { budgetChain } from "../domain/budgets/spend";
import { allOf, wallClockLimit } from "./keepers";
import { driveRun, type LoopPorts, type Pace, type RunKeeper } from "./loop";
import type { ModelClient } from "./model/model-client";
import { databaseJournal, type Inbox } from "./run-journal";
import { runTracer, withinDrive } from "./run-tracing";
import { doneSpec } from "./tools/done";
import type { Tool } from "./tools/tool";
import { createToolbox } from "./tools/toolbox";
import type { GitPlace } from "../domain/host-git";

export const RUN_DEFAULTS = { maxTurns: 12, retryAttempts: 1, contextLimit: 100_000, toolTimeoutMs: 60_000 };

/** What drives a run besides its journal: supplied again, unchanged, to resume it. */
export interface RunEnvironment {
  client: ModelClient;
  tools: readonly Tool[];
  /** The working directory the tools are confined to. */
  root: string;
  /** The root's git dir as the hub knows it (never read from the root's `.git`); none outside a flight's git. */
  git?: GitPlace;
  /** The flight's environment (its dependencies, built once by its setup) that sandboxed commands see. */
  environment?: string;
  toolTimeoutMs?: number;
  inbox?: Inbox;
  /** Keeps the run's task with it (lease, output items): agents/task-keeper.ts. */
  keeper?: RunKeeper;
  /** Wall-clock minutes one drive of the run may take (QUORUM_RUN_MAX_MINUTES); it stops at the first boundary past them. */
  maxMinutes?: number;
  /** Aborting it stops the run at its next turn boundary (RunStopped), like `requestStop` (domain/runs). */
  signal?: AbortSignal;
  clock?: Clock;
  /** The pause after each tool call (the team's pace); none when absent. */
  pace?: Pace;
}

export interface RunOptions extends RunEnvironment {
  agent: Principal;
  task: string;
  system: string;
  /** Promoted principles, put at the head of the context; their tokens count like any other. */
  principles?: string[];
  taskId?: string | null;
  budgetId?: string | null;
  maxTurns?: number;
  retryAttempts?: number;
  contextLimit?: number;
  /** The REQUEST message this run answers. */
  requestId?: number | null;
  runId?: string;
  /** The git tree its tools start from (a flight's coder), recorded so that a fork can rebuild its files. */
  workspace?: { tree: string };
}

export function newRunId(): string {
  return `run_${randomBytes(8).toString("hex")}`;
}

/** Takes the hub's secrets out of a tool's observation before anyone (the journal, the model) sees it. */
export function hubRedaction(db: Db): (observation: Observation) => Promise<Observation> {
  return async (observation) => redactValue(observation, await hubSecrets(db));
}

export function portsFor(db: Db, env: RunEnvironment): LoopPorts {
  const clock = env.clock ?? systemClock;
  const keepers = [env.keeper, env.maxMinutes ? wallClockLimit(env.maxMinutes, clock) : undefined].filter((k) => k !== undefined);
  return {
    client: env.client,
    toolbox: createToolbox(env.tools, {
      root: env.root,
      git: env.git,
      environment: env.environment,
      timeoutMs: env.toolTimeoutMs ?? RUN_DEFAULTS.toolTimeoutMs,
      redact: hubRedaction(db),
    }),
    journal: databaseJournal(db, { clock, inbox: env.inbox }),
    signal: env.signal,
    keeper: keepers.length ? allOf(keepers) : undefined,
    pace: env.pace,
  };
}

export async function startRun(db: Db, options: RunOptions): Promise<{ runId: string; result: RunResult }> {
  if (options.agent.kind !== "agent") throw fail.invalid("run", "only agents run");
  const chain = options.budgetId ? await budgetChain(db, options.budgetId) : [];
  if (chain.length) requireRunMayDraw(chain[0], { agentId: options.agent.id, taskId: options.taskId ?? null });
  const ports = portsFor(db, options);
  const runId = options.runId ?? newRunId();
  const trace = await runTracer()?.begin(db, { runId, agentId: options.agent.id, agentName: options.agent.name, taskId: options.taskId ?? null, client: options.client });
  const config: RunConfig = {
    task: options.task,
    system: options.system,
    principles: options.principles ?? [],
    tools: [...ports.toolbox.specs, doneSpec],
    budgetId: options.budgetId ?? null,
    budgetIds: chain.map((b) => b.id),
    maxTurns: options.maxTurns ?? RUN_DEFAULTS.maxTurns,
    retryAttempts: options.retryAttempts ?? RUN_DEFAULTS.retryAttempts,
    contextLimit: options.contextLimit ?? RUN_DEFAULTS.contextLimit,
    model: options.client.name,
    requestId: options.requestId ?? null,
    ...(trace ? { traceId: trace.traceId } : {}),
    ...(options.workspace ? { workspace: options.workspace } : {}),
  };
  const initial = { ...emptyRunState(), runId, agentId: options.agent.id, taskId: options.taskId ?? null };
  const result = await withinDrive(trace, async () => {
    const state = await ports.journal.append(initial, [{ kind: "RunStarted", data: config, turn: 0 }]);
    return driveRun(state, { ...ports, trace });
  });
  return { runId, result };
}

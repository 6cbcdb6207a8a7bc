// The agent loop: a turn at a time, every step journalled first and the next step read off the fold,
// so that a run, a resumed run and a replayed run are the same code path.
import type { BudgetDebitedData, Mail, ModelCalledData, ModelResponse, Observation, RunResult, ToolCall, ToolReturnedData } from "../domain/runs/run-events";
import type { RunState } from "../domain/runs/resume-point";
import type { RunEventDraft } from "../domain/runs/fence";
import { assembleContext } from "./context";
import { ModelError, type ModelClient, type RetryNotice } from "./model/model-client";
import { nextStep, outcome } from "./next-step";
import type { RunTrace } from "./run-tracing";
import { doneArguments, doneSpec } from "./tools/done";
import { failure, type PreparedCall, type Toolbox } from "./tools/toolbox";

/** One event the loop writes (the run fence in domain/runs fills in actor, run, task and time). */
export type Draft = RunEventDraft;

/** Where the loop writes and what it asks at the boundary: the database, or a recorded run in replay. */
export interface RunJournal {
  /** Appends the events in one transaction and returns the state folded over them. */
  append(state: RunState, drafts: Draft[]): Promise<RunState>;
  /** Takes the agent's delivered mail and journals ModelCalled, in one transaction. */
  beginTurn(state: RunState, turn: number, describe: (mail: Mail[]) => ModelCalledData): Promise<RunState>;
  /** Why the run must stop at this boundary (an operator asked), or null. */
  stopRequested(state: RunState): Promise<string | null>;
  exhaustedBudget(state: RunState): Promise<{ budgetId: string; allowance: number; budgetSpent: number } | null>;
}

/**
 * What keeps a run's task with it while it works (agents/task-keeper.ts): its lease renewed at each boundary
 * (and between, while a tool or the model takes long) and each tool result stored on the task.
 */
export interface RunKeeper {
  /** At each turn boundary: why the run must end now (it lost its task's lease, it ran out of wall clock), or null. */
  atBoundary(state: RunState): Promise<string | null>;
  /** After each tool result is journalled. */
  toolReturned(state: RunState, returned: ToolReturnedData): Promise<void>;
}

export interface LoopPorts {
  client: ModelClient;
  toolbox: Toolbox;
  journal: RunJournal;
  /** In-process operator stop, honoured at the next turn boundary like a stop request in the journal. */
  signal?: AbortSignal;
  keeper?: RunKeeper;
  /** Waits after each tool call returns, so a person watching sees each one land (the team's QUORUM_PACE_MS). */
  pace?: Pace;
  /** Spans of the model and tool calls, when the run is traced (agents/run-tracing.ts). */
  trace?: RunTrace;
}

/** A pause between an agent's visible actions. */
export type Pace = () => Promise<void>;

function contextOf(state: RunState, client: ModelClient, steps = state.steps) {
  const { principles, system, task, contextLimit } = state.config!;
  return assembleContext({ principles, system, task, steps, limit: contextLimit }, client.estimateTokens);
}

function debit(response: ModelResponse, budgetIds: string[]): BudgetDebitedData {
  const { inputTokens, outputTokens, cachedTokens, estimated } = response.usage;
  return { amount: inputTokens + outputTokens, inputTokens, outputTokens, cachedTokens, estimated, model: response.model, budgetIds };
}

export async function driveRun(initial: RunState, ports: LoopPorts): Promise<RunResult> {
  const { client, toolbox, journal } = ports;
  let state = initial;
  const config = state.config!;
  const specs = [...toolbox.specs, doneSpec];
  const record = async (...drafts: Draft[]) => {
    state = await journal.append(state, drafts);
  };
  /** The fields every tool event of one call shares. */
  const about = ({ index, call }: { index: number; call: ToolCall }, attempt: number) => ({ index, callId: call.id, tool: call.name, attempt });
  /** Journals a call's result, then hands it to the keeper (which stores it on the task). */
  const recordReturned = async (at: { index: number; call: ToolCall }, attempt: number, observation: Observation) => {
    const data: ToolReturnedData = { ...about(at, attempt), observation };
    await record({ kind: "ToolReturned", data });
    await ports.keeper?.toolReturned(state, data);
    await ports.pace?.();
  };
  const execute = (prepared: PreparedCall, index: number, attempt: number) => {
    const run = () => toolbox.execute(prepared, { runId: state.runId!, agentId: state.agentId!, turn: state.turn, index, attempt });
    return ports.trace ? ports.trace.tool(prepared.call, attempt, run) : run();
  };
  /** A call answered without running (invalid arguments, an unknown tool, an interrupted side effect) is still one the trace shows: every ToolReturned has its span. */
  const refused = async (call: ToolCall, attempt: number, observation: Observation) => (ports.trace ? ports.trace.tool(call, attempt, async () => observation) : observation);
  const rerun = async ({ index, call }: { index: number; call: ToolCall }, attempt: number) => {
    const prepared = toolbox.prepare(call, { turn: state.turn, index });
    return prepared.ok ? execute(prepared.prepared, index, attempt) : refused(call, attempt, prepared.observation);
  };

  for (;;) {
    const next = nextStep(state);
    switch (next.kind) {
      case "return":
        return next.result;
      case "finish":
        await record({ kind: "AgentFinished", data: { result: next.result } });
        break;
      case "boundary": {
        const stop = ports.signal?.aborted ? "stopped in process" : ((await journal.stopRequested(state)) ?? (await ports.keeper?.atBoundary(state)) ?? null);
        if (stop) {
          const result = outcome(state, { status: "stopped", reason: stop });
          await record({ kind: "RunStopped", data: { result } });
          return result;
        }
        const exhausted = await journal.exhaustedBudget(state);
        if (exhausted) {
          const result = outcome(state, { status: "halted", ...exhausted });
          // Resuming a run that is still out of budget reports the halt again without journalling it twice.
          if (state.cursor.at !== "halted") await record({ kind: "BudgetExhausted", data: { result } });
          return result;
        }
        if (state.turn >= config.maxTurns) {
          await record({ kind: "AgentFinished", data: { result: outcome(state, { status: "out_of_turns" }) } });
          break;
        }
        const turn = state.turn + 1;
        state = await journal.beginTurn(state, turn, (mail) => {
          const { messages, estimatedTokens, droppedSteps } = contextOf(state, client, [...state.steps, { turn, mail, response: null, observations: [] }]);
          return { turn, mail, context: { messages: messages.length, estimatedTokens, droppedSteps } };
        });
        break;
      }
      case "call_model": {
        let response: ModelResponse;
        try {
          // Each transient failure the client tries again is journalled before it waits.
          const onRetry = async (notice: RetryNotice) => record({ kind: "ModelRetried", data: notice });
          const { messages } = contextOf(state, client);
          response = ports.trace ? await ports.trace.chat((options) => client.complete(messages, specs, options), onRetry) : await client.complete(messages, specs, { onRetry });
        } catch (error) {
          // The run stays resumable at this call; the error is journalled so that a replay reproduces it.
          const failed = error instanceof ModelError ? { status: error.status, permanent: error.permanent, attempts: error.attempts } : {};
          await record({ kind: "ModelFailed", data: { error: (error as Error).message, ...failed } });
          throw error;
        }
        await record({ kind: "ModelResponded", data: response }, { kind: "BudgetDebited", data: debit(response, config.budgetIds) });
        break;
      }
      case "done": {
        const args = doneArguments.safeParse(next.call.arguments);
        if (args.success) {
          await record({ kind: "AgentFinished", data: { result: outcome(state, { status: "done", ...args.data }) } });
        } else {
          const why = failure("done needs a non-empty summary (and evidence: a list of strings)", "call done again with a summary and evidence");
          await recordReturned(next, 1, await refused(next.call, 1, why));
        }
        break;
      }
      case "dispatch": {
        const prepared = toolbox.prepare(next.call, { turn: state.turn, index: next.index });
        if (!prepared.ok) {
          await recordReturned(next, 1, await refused(next.call, 1, prepared.observation));
          break;
        }
        const { args, writes } = prepared.prepared;
        await record({ kind: "ToolDispatched", data: { ...about(next, 1), args, writes } });
        await recordReturned(next, 1, await execute(prepared.prepared, next.index, 1));
        break;
      }
      case "retry":
        await record({ kind: "ToolRetried", data: { ...about(next, next.attempt), after: next.after } });
        await recordReturned(next, next.attempt, await rerun(next, next.attempt));
        break;
      case "resume_tool": {
        const idempotent = config.tools.find((t) => t.name === next.call.name)?.idempotent;
        const observation = idempotent
          ? await rerun(next, next.attempt)
          : await refused(
              next.call,
              next.attempt,
              failure(`the run was interrupted while ${next.call.name} ran; whether it took effect is unknown`, "check its effect (read the file) before doing it again"),
            );
        await recordReturned(next, next.attempt, observation);
        break;
      }
    }
  }
}

// The toolbox: validates a call against its tool's schema, runs it under a timeout in its root, and
// turns every outcome (result, refusal, exception, timeout) into an observation.
import type { GitPlace } from "../../domain/host-git";
import { z } from "zod";
import type { Observation, ToolCall, ToolSpec } from "../../domain/runs/run-events";
import { DONE } from "./done";
import { toolSpec, ToolFailure, type Tool } from "./tool";

/** A call that passed validation, ready to run (or to re-run after a transient error or a crash). */
export interface PreparedCall {
  call: ToolCall;
  args: unknown;
  writes: string | null;
}

export interface ExecuteContext {
  runId: string;
  agentId: string;
  turn: number;
  index: number;
  attempt: number;
}

/** What the loop needs from tools; the live toolbox runs them, the replay toolbox reads the journal. */
export interface Toolbox {
  specs: ToolSpec[];
  prepare(call: ToolCall, at: { turn: number; index: number }): { ok: true; prepared: PreparedCall } | { ok: false; observation: Observation };
  execute(prepared: PreparedCall, ctx: ExecuteContext): Promise<Observation>;
}

export function failure(reason: string, recoveryHint: string, transient = false): Observation {
  return { is_error: true, reason, recovery_hint: recoveryHint, ...(transient ? { transient: true } : {}) };
}

export interface ToolboxOptions {
  root: string;
  /** The root's git dir as the hub knows it: list_files reads it, the sandbox binds it read-only. */
  git?: GitPlace;
  /** The flight's environment, which sandboxed commands see (agents/team/environment.ts). */
  environment?: string;
  timeoutMs?: number;
  /** Takes the hub's secrets out of every observation before anyone sees it (domain/hub-secrets.ts; agents/run.ts sets it). */
  redact?: (observation: Observation) => Promise<Observation>;
}

export function createToolbox(tools: readonly Tool[], options: ToolboxOptions): Toolbox {
  const byName = new Map<string, Tool>();
  for (const tool of tools) {
    if (tool.name === DONE) throw new Error("`done` is the loop's own verb; do not register a tool by that name");
    if (byName.has(tool.name)) throw new Error(`two tools are named ${tool.name}`);
    byName.set(tool.name, tool);
  }
  const names = [...byName.keys()].join(", ");
  return {
    specs: tools.map(toolSpec),
    prepare(call) {
      const tool = byName.get(call.name);
      if (!tool) return { ok: false, observation: failure(`there is no tool named '${call.name}'`, `use one of: ${names}, done`) };
      const parsed = tool.parameters.safeParse(call.arguments);
      if (!parsed.success) {
        const issues = z.prettifyError(parsed.error).replace(/\n\s*/g, " ");
        return { ok: false, observation: failure(`invalid arguments for ${tool.name}: ${issues}`, "call it again with arguments that match its schema") };
      }
      return { ok: true, prepared: { call, args: parsed.data, writes: tool.writes?.(parsed.data) ?? null } };
    },
    async execute(prepared, ctx) {
      const observation = await run(prepared, ctx);
      return options.redact ? options.redact(observation) : observation;
    },
  };

  async function run(prepared: PreparedCall, ctx: ExecuteContext): Promise<Observation> {
    const tool = byName.get(prepared.call.name)!;
    const timeoutMs = tool.timeoutMs ?? options.timeoutMs ?? 60_000;
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), timeoutMs);
    });
    try {
      const running = tool.execute(prepared.args as never, {
        root: options.root,
        git: options.git,
        environment: options.environment,
        signal: controller.signal,
        runId: ctx.runId,
        agentId: ctx.agentId,
        turn: ctx.turn,
      });
      const outcome = await Promise.race([running.then((result) => ({ result })), timedOut]);
      if (outcome === "timeout") {
        controller.abort();
        running.catch(() => {});
        return failure(`${tool.name} timed out after ${timeoutMs} ms`, "try again, or ask for less at once", true);
      }
      // The observation is journalled: keep it plain JSON.
      return { is_error: false, result: JSON.parse(JSON.stringify(outcome.result ?? null)) };
    } catch (error) {
      if (error instanceof ToolFailure) return failure(error.reason, error.recoveryHint, error.transient);
      return failure(`${tool.name} failed: ${(error as Error).message ?? String(error)}`, "check the arguments; if they are right, report the failure");
    } finally {
      clearTimeout(timer);
    }
  }
}

// What a tool is: a name, a description, a zod schema for its arguments and a handler.
// Failures are values: a handler throws ToolFailure (or anything) and the model gets an observation.
import { z } from "zod";
import type { GitPlace } from "../../domain/host-git";
import type { ToolSpec } from "../../domain/runs/run-events";

export interface ToolContext {
  /** The working directory every path of this tool is confined to. */
  root: string;
  /** The root's git dir and work tree as the hub knows them, where the root is a flight's clone or worktree. */
  git?: GitPlace;
  /** The flight's environment (its dependencies, built by its setup), shown to sandboxed commands; none outside a flight. */
  environment?: string;
  /** Aborted when the tool's timeout passes; long-running handlers stop their work on it. */
  signal: AbortSignal;
  runId: string;
  agentId: string;
  turn: number;
}

export interface Tool<P extends z.ZodObject = z.ZodObject> {
  name: string;
  description: string;
  parameters: P;
  /** Running it twice with the same arguments is harmless: transient errors and crashes may re-run it. */
  idempotent: boolean;
  /** Overrides the toolbox's default timeout. */
  timeoutMs?: number;
  /** The artefact (a path inside the root) a call writes, so the journal can show who touched what. */
  writes?: (args: z.infer<P>) => string | null;
  execute(args: z.infer<P>, ctx: ToolContext): Promise<unknown>;
}

/** Keeps the handler's argument type tied to its schema. */
export function defineTool<P extends z.ZodObject>(tool: Tool<P>): Tool<P> {
  return tool;
}

/** An expected failure, told to the model with what it can do about it. */
export class ToolFailure extends Error {
  /** Worth retrying unchanged (a flaky runner, a timeout), as opposed to a mistake in the call. */
  readonly transient: boolean;

  constructor(
    readonly reason: string,
    readonly recoveryHint: string,
    /** `cause`: the error this failure was made from, kept for logs; the model is told `reason` and `recoveryHint` only. */
    options: { transient?: boolean; cause?: unknown } = {},
  ) {
    super(reason, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ToolFailure";
    this.transient = options.transient ?? false;
  }
}

/** The JSON Schema the model is shown: what it must send, without the `$schema` header some servers refuse. */
export function parametersSchema(parameters: z.ZodObject): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(parameters, { io: "input" }) as Record<string, unknown>;
  return schema;
}

export function toolSpec(tool: Tool): ToolSpec {
  return { name: tool.name, description: tool.description, parameters: parametersSchema(tool.parameters), idempotent: tool.idempotent };
}

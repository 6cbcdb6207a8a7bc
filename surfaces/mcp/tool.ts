// One MCP tool: the REST operation it is (surfaces/http/tools.ts derives it from that endpoint's declaration), and running it.
import { z } from "zod";
import type { ServerContext } from "../../domain/context";
import { fail, QuorumError } from "../../domain/errors";
import type { Principal } from "../../domain/principal";
import { unstorableText } from "../../domain/storable-text";
import { mcpRefusal } from "./refusal";

/** What every tool call runs with: resolved per request, never shared between callers. */
export interface ToolContext extends ServerContext {
  caller: Principal;
  /** The HTTP request that carried the JSON-RPC call. */
  request: Request;
  signal?: AbortSignal;
}

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
}

export interface ToolDef<P extends z.ZodObject = z.ZodObject, I extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  /** The REST operation this tool mirrors, e.g. `POST /api/tasks/:id/heartbeat`. */
  rest: string;
  /** The path parameters, by name (`taskId` for `:id`). */
  params?: P;
  /** The very schema object the REST route reads its body or query with. */
  input?: I;
  output: z.ZodType;
  annotations: ToolAnnotations;
  run(ctx: ToolContext, params: z.infer<P>, input: z.infer<I>): Promise<object>;
}

/** Hint presets: reads; writes that are safe to repeat; writes that are not; writes that end or discard something. */
export const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true };
export const IDEMPOTENT: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true };
export const WRITE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false };
export const DESTRUCTIVE: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false };

export interface ToolResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  structuredContent: Record<string, unknown>;
  isError?: boolean;
}

function result(body: Record<string, unknown>, isError: boolean): ToolResult {
  return { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body, ...(isError ? { isError: true } : {}) };
}

function invalid(issues: z.core.$ZodIssue[]): QuorumError {
  const message = `invalid arguments: ${issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}`;
  return fail.invalid("request", message, { issues });
}

/** Splits the arguments into path params and body exactly as a URL and a JSON body would carry them. */
function parseArguments(tool: ToolDef, args: Record<string, unknown>): { params: unknown; input: unknown } {
  const paramKeys = new Set(Object.keys(tool.params?.shape ?? {}));
  const paramArgs: Record<string, unknown> = {};
  const bodyArgs: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) (paramKeys.has(key) ? paramArgs : bodyArgs)[key] = value;
  const unstorable = unstorableText(args);
  if (unstorable.length > 0) throw invalid(unstorable as unknown as z.core.$ZodIssue[]);
  const params = tool.params ? tool.params.safeParse(paramArgs) : { success: true as const, data: {} };
  const input = tool.input ? tool.input.safeParse(bodyArgs) : z.strictObject({}).safeParse(bodyArgs);
  const issues = [...(params.success ? [] : params.error.issues), ...(input.success ? [] : input.error.issues)];
  if (issues.length > 0) throw invalid(issues);
  return { params: params.data, input: input.success ? input.data : undefined };
}

/** Runs a tool: a refusal becomes a tool error carrying the error body (its hint names tools); nothing escapes as a protocol error. */
export async function callTool(tool: ToolDef, ctx: ToolContext, args: Record<string, unknown>): Promise<ToolResult> {
  try {
    const { params, input } = parseArguments(tool, args);
    return result((await tool.run(ctx, params as never, input as never)) as Record<string, unknown>, false);
  } catch (error) {
    if (error instanceof QuorumError) return result(mcpRefusal(error), true);
    console.error(`unexpected error in MCP tool ${tool.name}`, error);
    return result({ error: "internal", message: "something went wrong on our side; the call changed nothing" }, true);
  }
}

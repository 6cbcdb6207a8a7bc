// The model seam: one interface, the only place a vendor's API is spoken is behind it.
import type { ModelResponse, ToolCall, ToolSpec, Usage } from "../../domain/runs/run-events";

export type { ModelResponse, ToolCall, ToolSpec, Usage };

/** The runtime's own message format; each client translates it to its vendor's. */
export type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content: string; toolCalls: ToolCall[] }
  | { role: "tool"; toolCallId: string; name: string; content: string; isError: boolean };

/** One transient failure about to be tried again (the loop journals it as ModelRetried). */
export interface RetryNotice {
  /** The attempt that failed, from 1. */
  attempt: number;
  /** The HTTP status, or null for a timeout or a connection error. */
  status: number | null;
  error: string;
  /** How long the client waits before the next try. */
  delayMs: number;
}

export interface CallOptions {
  signal?: AbortSignal;
  onRetry?: (notice: RetryNotice) => void | Promise<void>;
}

/**
 * What configures a live client, in the words a person fixes it with: only agents/model/ knows a vendor,
 * so the probe, and the advice the hub posts when a run fails (domain/flights/hand-back.ts), read it here.
 */
export interface ModelSetup {
  /** The variable that holds its key. */
  keyVariable: string;
  /** The variable that names its server, and the server it calls. */
  baseUrlVariable: string;
  baseUrl: string;
  /** Its wire format (`chat-completions`), and whose it is. */
  wire: string;
  wireOwner: string;
}

/**
 * How a trace names the client, in OpenTelemetry's GenAI words (agents/run-spans.ts): the provider
 * (`gen_ai.provider.name`), the model it asks for (`gen_ai.request.model`), and the server it calls.
 */
export interface ModelTelemetry {
  provider: string;
  model: string;
  server?: { address: string; port: number };
}

/** The host and port of a base URL, as a span's `server.address` and `server.port` name them. */
export function serverOf(baseUrl: string): ModelTelemetry["server"] {
  const url = URL.parse(baseUrl);
  if (!url) return undefined;
  return { address: url.hostname, port: Number(url.port) || (url.protocol === "https:" ? 443 : 80) };
}

export interface ModelClient {
  /** Recorded in RunStarted: `scripted`, `replay`, or `<wire>:<model>` for a live client. */
  readonly name: string;
  /** What configures it; null for a client no setting configures (scripted, replay). */
  readonly setup: ModelSetup | null;
  readonly telemetry: ModelTelemetry;
  /** What a person can do about a run of this client that failed, or ended unfinished, for `reason`. */
  adviceFor(reason: string): string;
  /** One call. Usage is never zero for a live call (estimated, and marked so, if the server omits it). */
  complete(messages: ChatMessage[], tools: ToolSpec[], options?: CallOptions): Promise<ModelResponse>;
  /** The token estimate the context policy budgets with. */
  estimateTokens(text: string): number;
  /** Stateful clients (the scripted one) skip the calls a resumed run's journal already holds. */
  resumeAfter?(recordedCalls: number): void;
}

/**
 * Thrown when a call fails for good: permanent at once (a refusal such as 401/403/404, a response
 * that cannot be read), or transient ones until the tries or the time ran out.
 */
export class ModelError extends Error {
  readonly permanent: boolean;
  readonly attempts: number;
  constructor(
    message: string,
    readonly status: number | null = null,
    options?: { cause?: unknown; permanent?: boolean; attempts?: number },
  ) {
    super(message, options);
    this.name = "ModelError";
    this.permanent = options?.permanent ?? false;
    this.attempts = options?.attempts ?? 1;
  }
}

/**
 * The advice for a run that failed or ended unfinished, by the reason's shape. A client's own setup words
 * what to check; without one (scripted, replay) only what holds for any server is said.
 */
export function failureAdvice(setup: ModelSetup | null, reason: string): string {
  if (setup && /HTTP 401|HTTP 403/.test(reason)) return `check ${setup.keyVariable}`;
  if (setup && /HTTP 404/.test(reason)) return `check QUORUM_MODEL (the server does not know that model) and ${setup.baseUrlVariable}`;
  if (setup && /cannot reach|no response within/.test(reason)) return `check that the server at ${setup.baseUrlVariable} is up (\`quorum model check\`)`;
  if (/HTTP 429|HTTP 5\d\d/.test(reason)) return "the server is overloaded or failing: retry later, or run the flight scripted";
  if (setup && /not JSON|malformed/.test(reason)) return `the server at ${setup.baseUrlVariable} does not speak the ${setup.wire} wire format`;
  return "choose a model that calls tools (`quorum model check`), or run the flight scripted";
}

/**
 * About four characters a token for English and code; every client shares it so that a replay
 * assembles exactly the context the original run did.
 */
export function estimateTokens(text: string): number {
  return text.length === 0 ? 0 : Math.ceil(text.length / 4);
}

/** The estimate of a whole exchange, for servers that report no usage. */
export function estimateUsage(messages: ChatMessage[], text: string, toolCalls: ToolCall[]): Usage {
  const input = messages.reduce((sum, m) => sum + estimateTokens(m.content) + 4, 0);
  const output = estimateTokens(text) + estimateTokens(toolCalls.length ? JSON.stringify(toolCalls) : "");
  return { inputTokens: Math.max(1, input), outputTokens: Math.max(1, output), cachedTokens: 0, estimated: true };
}

/** A server's usage when it is real, else the estimate: a live call never costs zero. */
export function usageOrEstimate(reported: Usage | null, messages: ChatMessage[], text: string, toolCalls: ToolCall[]): Usage {
  if (reported && reported.inputTokens + reported.outputTokens > 0) return reported;
  return estimateUsage(messages, text, toolCalls);
}

/** Arguments arrive as JSON text on some wires; unparseable text is kept so validation can say so. */
export function parseArguments(raw: unknown): unknown {
  if (typeof raw !== "string") return raw ?? {};
  if (raw.trim() === "") return {};
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** Gives every call an id unique within its response (some local servers send none, or repeats). */
export function uniqueCallIds(calls: ToolCall[], prefix: string): ToolCall[] {
  const seen = new Set<string>();
  return calls.map((call, i) => {
    const id = call.id && !seen.has(call.id) ? call.id : `${prefix}_${i}`;
    seen.add(id);
    return { ...call, id };
  });
}

// The scripted client: replays a queue of responses, so every test runs the real loop without a model.
import { estimateTokens, estimateUsage, failureAdvice, ModelError, type ChatMessage, type ModelClient, type ModelResponse, type ToolSpec } from "./model-client";

export interface ScriptEntry {
  text?: string;
  toolCalls?: { name: string; arguments?: unknown; id?: string }[];
  /** Exact usage for hand-computed bills; by default the exchange is estimated (and marked so). */
  usage?: { inputTokens: number; outputTokens: number; cachedTokens?: number };
  /** Makes this call fail with a ModelError carrying this message (and `status`, the HTTP status a server would have sent). */
  error?: string;
  status?: number;
  model?: string;
}

export interface ScriptedClient extends ModelClient {
  /** What each call was shown, in order: tests read the assembled context here. */
  readonly calls: { messages: ChatMessage[]; tools: ToolSpec[] }[];
  /** How many entries have been consumed. */
  readonly position: number;
}

/**
 * One step of a script: a fixed response, or one worded from what the run was shown so far (a role reports
 * what its tools returned, never a claim fixed in advance).
 */
export type ScriptStep = ScriptEntry | ((messages: readonly ChatMessage[]) => ScriptEntry);

export function scriptedClient(script: readonly ScriptStep[]): ScriptedClient {
  let position = 0;
  const calls: { messages: ChatMessage[]; tools: ToolSpec[] }[] = [];
  return {
    name: "scripted",
    setup: null,
    // No vendor answers: a custom provider name, in the conventions' dotted style.
    telemetry: { provider: "quorum.scripted", model: "scripted" },
    adviceFor: (reason) => failureAdvice(null, reason),
    calls,
    get position() {
      return position;
    },
    estimateTokens,
    resumeAfter(recordedCalls: number) {
      position = recordedCalls;
    },
    async complete(messages, tools): Promise<ModelResponse> {
      const step = script[position];
      if (!step) throw new ModelError(`the script is exhausted after ${script.length} responses`);
      const index = position++;
      calls.push({ messages, tools });
      const entry = typeof step === "function" ? step(messages) : step;
      if (entry.error) throw new ModelError(entry.error, entry.status ?? null);
      const text = entry.text ?? "";
      const toolCalls = (entry.toolCalls ?? []).map((call, i) => ({
        id: call.id ?? `call_${index + 1}_${i + 1}`,
        name: call.name,
        arguments: call.arguments ?? {},
      }));
      const usage = entry.usage
        ? { inputTokens: entry.usage.inputTokens, outputTokens: entry.usage.outputTokens, cachedTokens: entry.usage.cachedTokens ?? 0, estimated: false }
        : estimateUsage(messages, text, toolCalls);
      return { text, toolCalls, usage, model: entry.model ?? "scripted" };
    },
  };
}

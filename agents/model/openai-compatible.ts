// The OpenAI-compatible client: chat completions with tools over fetch. Works with OpenAI itself and
// with any server that speaks the same wire (vLLM, llama.cpp server, Ollama) through a base URL.
import { z } from "zod";
import {
  estimateTokens,
  failureAdvice,
  serverOf,
  parseArguments,
  uniqueCallIds,
  usageOrEstimate,
  type ChatMessage,
  type ModelClient,
  type ModelResponse,
  type ModelSetup,
  type ToolSpec,
} from "./model-client";
import { defaultRetryPolicy, postForJson, type RetryPolicy } from "./retry";

export interface OpenAiCompatibleOptions {
  /** e.g. https://api.openai.com/v1, http://127.0.0.1:8000/v1 (vLLM), http://127.0.0.1:11434/v1 (Ollama). */
  baseUrl: string;
  /** Optional for local servers. */
  apiKey?: string;
  model: string;
  maxTokens?: number;
  retry?: RetryPolicy;
}

const wireResponse = z.object({
  model: z.string().optional(),
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          tool_calls: z.array(z.object({ id: z.string().nullish(), function: z.object({ name: z.string(), arguments: z.unknown() }) })).nullish(),
        }),
      }),
    )
    .min(1),
  usage: z
    .object({
      prompt_tokens: z.number().nullish(),
      completion_tokens: z.number().nullish(),
      prompt_tokens_details: z.object({ cached_tokens: z.number().nullish() }).nullish(),
    })
    .nullish(),
});

function toWireMessage(message: ChatMessage): Record<string, unknown> {
  switch (message.role) {
    case "assistant": {
      const toolCalls = message.toolCalls.map((call) => ({
        id: call.id,
        type: "function",
        function: { name: call.name, arguments: JSON.stringify(call.arguments ?? {}) },
      }));
      return { role: "assistant", content: message.content || null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) };
    }
    case "tool":
      return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
    default:
      return { role: message.role, content: message.content };
  }
}

function toWireTool(tool: ToolSpec) {
  return { type: "function", function: { name: tool.name, description: tool.description, parameters: tool.parameters } };
}

export function openAiCompatibleClient(options: OpenAiCompatibleOptions): ModelClient {
  const label = `openai-compatible:${options.model}`;
  const url = `${options.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  // Every server on this wire is configured by the OpenAI variables, a local one included.
  const setup: ModelSetup = {
    keyVariable: "QUORUM_OPENAI_API_KEY",
    baseUrlVariable: "QUORUM_OPENAI_BASE_URL",
    baseUrl: options.baseUrl,
    wire: "chat-completions",
    wireOwner: "OpenAI",
  };
  return {
    name: label,
    setup,
    // OpenTelemetry names the wire's flavour here, whichever server speaks it (vLLM, llama.cpp, Ollama too).
    telemetry: { provider: "openai", model: options.model, server: serverOf(options.baseUrl) },
    adviceFor: (reason) => failureAdvice(setup, reason),
    estimateTokens,
    async complete(messages, tools, callOptions = {}): Promise<ModelResponse> {
      const body = {
        model: options.model,
        messages: messages.map(toWireMessage),
        ...(tools.length ? { tools: tools.map(toWireTool) } : {}),
        ...(options.maxTokens ? { max_tokens: options.maxTokens } : {}),
      };
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
      const data = await postForJson(
        label,
        url,
        { headers, body: JSON.stringify(body), signal: callOptions.signal, onRetry: callOptions.onRetry },
        options.retry ?? defaultRetryPolicy,
        wireResponse,
        "chat completion",
      );
      const message = data.choices[0].message;
      const text = message.content ?? "";
      const toolCalls = uniqueCallIds(
        (message.tool_calls ?? []).map((call) => ({ id: call.id ?? "", name: call.function.name, arguments: parseArguments(call.function.arguments) })),
        "call",
      );
      const usage = data.usage;
      const reported = usage
        ? {
            inputTokens: usage.prompt_tokens ?? 0,
            outputTokens: usage.completion_tokens ?? 0,
            cachedTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
            estimated: false,
          }
        : null;
      return { text, toolCalls, usage: usageOrEstimate(reported, messages, text, toolCalls), model: data.model ?? options.model };
    },
  };
}

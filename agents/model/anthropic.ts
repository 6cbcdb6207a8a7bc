// The Anthropic client: the messages API with tools over fetch (no SDK).
import { z } from "zod";
import {
  estimateTokens,
  failureAdvice,
  serverOf,
  uniqueCallIds,
  usageOrEstimate,
  type ChatMessage,
  type ModelClient,
  type ModelResponse,
  type ModelSetup,
  type ToolSpec,
} from "./model-client";
import { defaultRetryPolicy, postForJson, type RetryPolicy } from "./retry";

export interface AnthropicOptions {
  apiKey: string;
  model: string;
  /** Defaults to https://api.anthropic.com; a proxy or a test server may stand in. */
  baseUrl?: string;
  /** The API requires a ceiling on output tokens. */
  maxTokens?: number;
  retry?: RetryPolicy;
}

const API_VERSION = "2023-06-01";

const wireResponse = z.object({
  model: z.string().optional(),
  content: z.array(
    z.union([
      z.object({ type: z.literal("text"), text: z.string() }),
      z.object({ type: z.literal("tool_use"), id: z.string(), name: z.string(), input: z.unknown() }),
      // Other block kinds (thinking, …) carry nothing the runtime uses.
      z.object({ type: z.string() }),
    ]),
  ),
  usage: z
    .object({
      input_tokens: z.number().nullish(),
      output_tokens: z.number().nullish(),
      cache_read_input_tokens: z.number().nullish(),
      cache_creation_input_tokens: z.number().nullish(),
    })
    .nullish(),
});

type Block = Record<string, unknown>;
type WireMessage = { role: "user" | "assistant"; content: Block[] };

function blocksOf(message: Exclude<ChatMessage, { role: "system" }>): WireMessage {
  switch (message.role) {
    case "user":
      return { role: "user", content: [{ type: "text", text: message.content || "(empty)" }] };
    case "tool":
      return { role: "user", content: [{ type: "tool_result", tool_use_id: message.toolCallId, content: message.content, is_error: message.isError }] };
    case "assistant": {
      const content: Block[] = message.content ? [{ type: "text", text: message.content }] : [];
      for (const call of message.toolCalls) {
        const input = call.arguments && typeof call.arguments === "object" && !Array.isArray(call.arguments) ? call.arguments : { value: call.arguments };
        content.push({ type: "tool_use", id: call.id, name: call.name, input });
      }
      return { role: "assistant", content: content.length ? content : [{ type: "text", text: "(no reply)" }] };
    }
  }
}

/** The API wants alternating roles; consecutive messages of one role become one (tool results first). */
function toWireMessages(messages: ChatMessage[]): WireMessage[] {
  const out: WireMessage[] = [];
  for (const message of messages) {
    if (message.role === "system") continue;
    const wire = blocksOf(message);
    const last = out.at(-1);
    if (last && last.role === wire.role) last.content.push(...wire.content);
    else out.push(wire);
  }
  return out;
}

function toWireTool(tool: ToolSpec) {
  return { name: tool.name, description: tool.description, input_schema: tool.parameters };
}

/** A prompt-cache breakpoint: the prefix up to and including the marked block is cached for five minutes. */
const CACHE_MARK = { type: "ephemeral" } as const;

/**
 * Marks the request for prompt caching. The API caches in the order tools → system → messages, so a mark on
 * the last tool caches the tools, one on the system block (principles and system prompt, one text) caches
 * both, and one on the conversation's last block lets the next turn read everything said so far from the
 * cache. Three of the four breakpoints the API allows; a prefix shorter than the model's minimum is simply
 * not cached.
 */
function withCacheMarks<T extends { system?: string; messages: WireMessage[]; tools?: ReturnType<typeof toWireTool>[] }>(body: T) {
  const tools = body.tools?.map((tool, i, all) => (i === all.length - 1 ? { ...tool, cache_control: CACHE_MARK } : tool));
  const messages = body.messages.map((message, i, all) =>
    i === all.length - 1
      ? { ...message, content: message.content.map((block, j, blocks) => (j === blocks.length - 1 ? { ...block, cache_control: CACHE_MARK } : block)) }
      : message,
  );
  return {
    ...body,
    ...(body.system ? { system: [{ type: "text", text: body.system, cache_control: CACHE_MARK }] } : {}),
    messages,
    ...(tools ? { tools } : {}),
  };
}

export function anthropicClient(options: AnthropicOptions): ModelClient {
  const label = `anthropic:${options.model}`;
  const baseUrl = options.baseUrl ?? "https://api.anthropic.com";
  const url = `${baseUrl.replace(/\/+$/, "")}/v1/messages`;
  const setup: ModelSetup = { keyVariable: "QUORUM_ANTHROPIC_API_KEY", baseUrlVariable: "QUORUM_ANTHROPIC_BASE_URL", baseUrl, wire: "messages", wireOwner: "Anthropic" };
  return {
    name: label,
    setup,
    telemetry: { provider: "anthropic", model: options.model, server: serverOf(baseUrl) },
    adviceFor: (reason) => failureAdvice(setup, reason),
    estimateTokens,
    async complete(messages, tools, callOptions = {}): Promise<ModelResponse> {
      const system = messages
        .filter((m) => m.role === "system")
        .map((m) => m.content)
        .join("\n\n");
      const body = withCacheMarks({
        model: options.model,
        max_tokens: options.maxTokens ?? 4096,
        ...(system ? { system } : {}),
        messages: toWireMessages(messages),
        ...(tools.length ? { tools: tools.map(toWireTool) } : {}),
      });
      const headers = { "content-type": "application/json", "x-api-key": options.apiKey, "anthropic-version": API_VERSION };
      const data = await postForJson(
        label,
        url,
        { headers, body: JSON.stringify(body), signal: callOptions.signal, onRetry: callOptions.onRetry },
        options.retry ?? defaultRetryPolicy,
        wireResponse,
        "message",
      );
      let text = "";
      const calls = [];
      for (const block of data.content) {
        if (block.type === "text" && "text" in block) text += block.text;
        if (block.type === "tool_use" && "input" in block) calls.push({ id: block.id, name: block.name, arguments: block.input ?? {} });
      }
      const toolCalls = uniqueCallIds(calls, "toolu");
      const usage = data.usage;
      const cacheRead = usage?.cache_read_input_tokens ?? 0;
      // input_tokens excludes cache reads and writes; the runtime counts every input token. Reads are the
      // cached tokens (priced at the cached rate, domain/bill/prices.ts); writes count as ordinary input.
      const reported = usage
        ? {
            inputTokens: (usage.input_tokens ?? 0) + cacheRead + (usage.cache_creation_input_tokens ?? 0),
            outputTokens: usage.output_tokens ?? 0,
            cachedTokens: cacheRead,
            estimated: false,
          }
        : null;
      return { text, toolCalls, usage: usageOrEstimate(reported, messages, text, toolCalls), model: data.model ?? options.model };
    },
  };
}

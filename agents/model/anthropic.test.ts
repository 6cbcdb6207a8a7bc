// The Anthropic client against a loopback server speaking the messages API: tool_use and tool_result
// blocks, alternating roles, prompt-cache marks and cache-aware usage, 529 and 429 retries honouring Retry-After, clear errors.
import { afterEach, describe, expect, it } from "vitest";
import { anthropicClient } from "./anthropic";
import type { ChatMessage, ToolSpec } from "./model-client";
import { recordingRetry, startWireServer, type WireServer } from "./wire-server";

let server: WireServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const tools: ToolSpec[] = [{ name: "run_tests", description: "runs", parameters: { type: "object", properties: {} }, idempotent: true }];
const messages: ChatMessage[] = [
  { role: "system", content: "principles" },
  { role: "system", content: "be the coder" },
  { role: "user", content: "fix it" },
  { role: "assistant", content: "Running the tests.", toolCalls: [{ id: "toolu_1", name: "run_tests", arguments: {} }] },
  { role: "tool", toolCallId: "toolu_1", name: "run_tests", content: '{"is_error":true,"reason":"died"}', isError: true },
  { role: "user", content: "Mail delivered to you: …" },
];
const message = (content: object[], usage?: object) => ({
  id: "msg_1",
  type: "message",
  role: "assistant",
  model: "claude-served",
  content,
  stop_reason: "tool_use",
  ...(usage ? { usage } : {}),
});

describe("anthropic client", () => {
  it("speaks the messages API with tools, and reads tool_use and cache-aware usage back", async () => {
    server = await startWireServer(() => ({
      body: message(
        [
          { type: "text", text: "Fixing." },
          { type: "tool_use", id: "toolu_2", name: "run_tests", input: {} },
        ],
        { input_tokens: 50, output_tokens: 20, cache_read_input_tokens: 100, cache_creation_input_tokens: 10 },
      ),
    }));
    const client = anthropicClient({ apiKey: "ak-test", model: "claude-test", baseUrl: server.url, maxTokens: 1024 });
    const response = await client.complete(messages, tools);
    expect(response).toEqual({
      text: "Fixing.",
      toolCalls: [{ id: "toolu_2", name: "run_tests", arguments: {} }],
      usage: { inputTokens: 160, outputTokens: 20, cachedTokens: 100, estimated: false },
      model: "claude-served",
    });
    const [request] = server.requests;
    expect(request).toMatchObject({ path: "/v1/messages", headers: { "x-api-key": "ak-test", "anthropic-version": "2023-06-01" } });
    expect(request.body).toEqual({
      model: "claude-test",
      max_tokens: 1024,
      // The stable prefix is marked for prompt caching: the tools, the system block, the conversation so far.
      system: [{ type: "text", text: "principles\n\nbe the coder", cache_control: { type: "ephemeral" } }],
      messages: [
        { role: "user", content: [{ type: "text", text: "fix it" }] },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Running the tests." },
            { type: "tool_use", id: "toolu_1", name: "run_tests", input: {} },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "toolu_1", content: '{"is_error":true,"reason":"died"}', is_error: true },
            { type: "text", text: "Mail delivered to you: …", cache_control: { type: "ephemeral" } },
          ],
        },
      ],
      tools: [{ name: "run_tests", description: "runs", input_schema: tools[0].parameters, cache_control: { type: "ephemeral" } }],
    });
  });

  it("retries 529 (overloaded) and 429, honouring Retry-After, then succeeds", async () => {
    const overloaded = { type: "error", error: { type: "overloaded_error", message: "Overloaded" } };
    server = await startWireServer((_req, n) =>
      n === 0
        ? { status: 529, body: overloaded }
        : n === 1
          ? { status: 429, headers: { "retry-after": "3" }, body: { type: "error", error: { type: "rate_limit_error", message: "slow down" } } }
          : { body: message([{ type: "text", text: "ok" }], { input_tokens: 5, output_tokens: 1 }) },
    );
    const retry = recordingRetry();
    const response = await anthropicClient({ apiKey: "k", model: "m", baseUrl: server.url, retry: retry.policy }).complete(messages.slice(0, 3), []);
    expect(response.text).toBe("ok");
    expect(server.requests).toHaveLength(3);
    expect(retry.delays).toEqual([375, 3150]);
  });

  it("fails clearly on a response without content, and gives up when the server asks to wait too long", async () => {
    const replies = [{ body: { type: "message", usage: { input_tokens: 1, output_tokens: 1 } } }, { status: 429, headers: { "retry-after": "600" }, body: {} }];
    server = await startWireServer((_req, n) => replies[n]);
    const client = anthropicClient({ apiKey: "k", model: "m", baseUrl: server.url, retry: recordingRetry().policy });
    await expect(client.complete(messages.slice(0, 3), [])).rejects.toThrow(/anthropic:m: malformed message .*content/);
    await expect(client.complete(messages.slice(0, 3), [])).rejects.toThrow("anthropic:m: HTTP 429, and the server asks to wait 600000 ms (more than 60000)");
  });
});

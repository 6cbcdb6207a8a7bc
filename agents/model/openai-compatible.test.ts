// The OpenAI-compatible client against a loopback server speaking chat completions: tool calls both
// ways, usage (reported, cached, or estimated), 429/503 retries honouring Retry-After, clear errors.
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { makeAgent } from "../../test/helpers";
import { startRun } from "../run";
import { makeScratchRepo, scratchTools } from "../../test/fixtures/runtime";
import type { ChatMessage, ToolSpec } from "./model-client";
import { ModelError } from "./model-client";
import { openAiCompatibleClient } from "./openai-compatible";
import { recordingRetry, startWireServer, type WireServer } from "./wire-server";

let server: WireServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const tools: ToolSpec[] = [{ name: "read_file", description: "reads", parameters: { type: "object", properties: { path: { type: "string" } } }, idempotent: true }];
const messages: ChatMessage[] = [
  { role: "system", content: "be brief" },
  { role: "user", content: "fix it" },
  { role: "assistant", content: "", toolCalls: [{ id: "call_1", name: "read_file", arguments: { path: "a.js" } }] },
  { role: "tool", toolCallId: "call_1", name: "read_file", content: '{"is_error":false}', isError: false },
];
const completion = (message: object, usage?: object) => ({
  id: "chatcmpl-1",
  object: "chat.completion",
  model: "served-model",
  choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: "tool_calls" }],
  ...(usage ? { usage } : {}),
});

describe("openai-compatible client", () => {
  it("speaks chat completions with tools, and reads tool calls and usage back", async () => {
    server = await startWireServer(() => ({
      body: completion(
        { content: null, tool_calls: [{ id: "call_abc", type: "function", function: { name: "read_file", arguments: '{"path":"parser.js"}' } }] },
        { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150, prompt_tokens_details: { cached_tokens: 100 } },
      ),
    }));
    const client = openAiCompatibleClient({ baseUrl: `${server.url}/v1/`, apiKey: "sk-test", model: "gpt-test" });
    const response = await client.complete(messages, tools);
    expect(response).toEqual({
      text: "",
      toolCalls: [{ id: "call_abc", name: "read_file", arguments: { path: "parser.js" } }],
      usage: { inputTokens: 120, outputTokens: 30, cachedTokens: 100, estimated: false },
      model: "served-model",
    });
    const [request] = server.requests;
    expect(request).toMatchObject({ method: "POST", path: "/v1/chat/completions", headers: { authorization: "Bearer sk-test" } });
    expect(request.body).toEqual({
      model: "gpt-test",
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: "fix it" },
        { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "read_file", arguments: '{"path":"a.js"}' } }] },
        { role: "tool", tool_call_id: "call_1", content: '{"is_error":false}' },
      ],
      tools: [{ type: "function", function: { name: "read_file", description: "reads", parameters: tools[0].parameters } }],
    });
  });

  it("waits as long as a 429's Retry-After asks, then succeeds", async () => {
    server = await startWireServer((_req, n) =>
      n === 0
        ? { status: 429, headers: { "retry-after": "2" }, body: { error: { message: "rate limited" } } }
        : { body: completion({ content: "hello" }, { prompt_tokens: 10, completion_tokens: 2 }) },
    );
    const retry = recordingRetry();
    const client = openAiCompatibleClient({ baseUrl: server.url, model: "m", retry: retry.policy });
    const response = await client.complete(messages.slice(0, 2), []);
    expect(response.text).toBe("hello");
    expect(server.requests).toHaveLength(2);
    // 2 s honoured, plus at most 10% jitter (the test's random() is 0.5).
    expect(retry.delays).toEqual([2100]);
  });

  it("backs off with jitter on 503 and gives up after the bounded number of tries", async () => {
    server = await startWireServer(() => ({ status: 503, body: "upstream unavailable" }));
    const retry = recordingRetry(3);
    const client = openAiCompatibleClient({ baseUrl: server.url, model: "m", retry: retry.policy });
    const failure = client.complete(messages.slice(0, 2), []);
    await expect(failure).rejects.toThrow(ModelError);
    await expect(failure).rejects.toThrow("openai-compatible:m: HTTP 503 after 3 tries: upstream unavailable");
    expect(server.requests).toHaveLength(3);
    expect(retry.delays).toEqual([375, 750]);
  });

  it("fails at once, clearly, on a refusal or a response it cannot read", async () => {
    const replies = [{ status: 400, body: { error: { message: "bad tool schema" } } }, { body: { choices: [] } }, { body: "<html>gateway</html>" }];
    server = await startWireServer((_req, n) => replies[n]);
    const client = openAiCompatibleClient({ baseUrl: server.url, model: "m", retry: recordingRetry().policy });
    await expect(client.complete(messages, [])).rejects.toMatchObject({ status: 400, message: expect.stringContaining("bad tool schema") });
    await expect(client.complete(messages, [])).rejects.toThrow(/malformed chat completion .*choices/);
    await expect(client.complete(messages, [])).rejects.toThrow(/the response is not JSON: <html>/);
    expect(server.requests).toHaveLength(3);
  });

  it("estimates usage, and says so, when the server reports none", async () => {
    server = await startWireServer(() => ({ body: completion({ content: "a reply of some length" }) }));
    const response = await openAiCompatibleClient({ baseUrl: server.url, model: "m" }).complete(messages, []);
    expect(response.usage.estimated).toBe(true);
    expect(response.usage.inputTokens).toBeGreaterThan(0);
    expect(response.usage.outputTokens).toBe(Math.ceil("a reply of some length".length / 4));
  });

  it("drives a whole run through the loop: the seam holds", async () => {
    const script = [
      { content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "read_file", arguments: '{"path":"parser.js"}' } }] },
      { content: null, tool_calls: [{ id: "c2", type: "function", function: { name: "done", arguments: '{"summary":"read it","evidence":["parser.js"]}' } }] },
    ];
    server = await startWireServer((_req, n) => ({ body: completion(script[n], { prompt_tokens: 100 + n, completion_tokens: 10 }) }));
    const client = openAiCompatibleClient({ baseUrl: server.url, model: "m" });
    const { result } = await startRun(getDb(), { agent: await makeAgent(), client, tools: scratchTools(), root: makeScratchRepo(), task: "read parser.js", system: "s" });
    expect(result).toEqual({ status: "done", summary: "read it", evidence: ["parser.js"], turns: 2, spent: 221 });
    const second = server.requests[1].body as { messages: { role: string; tool_call_id?: string; content: string }[] };
    const observation = second.messages.find((m) => m.role === "tool")!;
    expect(observation.tool_call_id).toBe("c1");
    expect(JSON.parse(observation.content)).toMatchObject({ is_error: false, result: { path: "parser.js" } });
  });
});

// The OpenAI-compatible client against a loopback server speaking chat completions: tool calls both
// ways, usage (reported, cached, or estimated), 429/503 retries honouring Retry-After, clear errors.
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { makeAgent } from "../../test/helpers";
import { eq } from "drizzle-orm";
import { events as eventsTable } from "../../db/schema";
import { loadRunEvents } from "../../domain/journal/load";
import { replayRun } from "../replay";
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
    await expect(failure).rejects.toThrow("openai-compatible:m: HTTP 503: upstream unavailable (after 3 tries)");
    await expect(failure).rejects.toMatchObject({ permanent: false, attempts: 3, status: 503 });
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

  it("retries 500, 502 and 504 and a connection cut, telling the caller of each try before it waits", async () => {
    const statuses = [500, 502, 504];
    server = await startWireServer((_req, n) => (n < 3 ? { status: statuses[n], body: { error: { message: `down ${n}` } } } : { body: completion({ content: "back" }) }));
    const retry = recordingRetry(5);
    const notices: unknown[] = [];
    const client = openAiCompatibleClient({ baseUrl: server.url, model: "m", retry: retry.policy });
    const response = await client.complete(messages.slice(0, 2), [], { onRetry: (n) => void notices.push(n) });
    expect(response.text).toBe("back");
    expect(retry.delays).toEqual([375, 750, 1500]);
    expect(notices).toEqual([
      { attempt: 1, status: 500, delayMs: 375, error: expect.stringContaining("openai-compatible:m: HTTP 500") },
      { attempt: 2, status: 502, delayMs: 750, error: expect.stringContaining("HTTP 502") },
      { attempt: 3, status: 504, delayMs: 1500, error: expect.stringContaining("HTTP 504") },
    ]);

    // Nothing listens on a closed port: a connection error is transient too, and says where it tried.
    const closed = server.url;
    await server.close();
    server = undefined;
    const unreachable = recordingRetry(2);
    const cut = openAiCompatibleClient({ baseUrl: closed, model: "m", retry: unreachable.policy }).complete(messages.slice(0, 2), []);
    await expect(cut).rejects.toMatchObject({
      status: null,
      permanent: false,
      attempts: 2,
      message: expect.stringContaining(`cannot reach ${closed}/chat/completions (ECONNREFUSED)`),
    });
    expect(unreachable.delays).toEqual([375]);
  });

  it("is permanent at once on 401, 403 and 404: one request each, no retry", async () => {
    const refusals = [401, 403, 404];
    server = await startWireServer((_req, n) => ({ status: refusals[n], body: { error: { message: `refused ${refusals[n]}` } } }));
    const retry = recordingRetry();
    const client = openAiCompatibleClient({ baseUrl: server.url, model: "m", retry: retry.policy });
    for (const status of refusals) {
      await expect(client.complete(messages, [])).rejects.toMatchObject({ status, permanent: true, attempts: 1, message: expect.stringContaining(`refused ${status}`) });
    }
    expect(server.requests).toHaveLength(3);
    expect(retry.delays).toEqual([]);
  });

  it("aborts a response that stalls past the attempt's timeout and retries it; stops when the time budget would pass", async () => {
    server = await startWireServer((_req, n) => (n === 0 ? { body: completion({ content: "late" }), delayMs: 2_000 } : { body: completion({ content: "prompt" }) }));
    const retry = recordingRetry();
    const client = openAiCompatibleClient({ baseUrl: server.url, model: "m", retry: { ...retry.policy, timeoutMs: 200 } });
    const notices: { status: number | null; error: string }[] = [];
    const response = await client.complete(messages.slice(0, 2), [], { onRetry: (n) => void notices.push(n) });
    expect(response.text).toBe("prompt");
    expect(notices).toMatchObject([{ status: null, error: expect.stringContaining("no response within 200 ms") }]);

    // A budget of time smaller than the backoff: the first 503 is the last, said as such.
    let clock = 0;
    await server.close();
    server = await startWireServer(() => ({ status: 503, body: "busy" }));
    const tight = openAiCompatibleClient({ baseUrl: server.url, model: "m", retry: { ...retry.policy, budgetMs: 300, now: () => clock++ } });
    await expect(tight.complete(messages.slice(0, 2), [])).rejects.toThrow(/HTTP 503: busy \(after 1 tries; another would pass the call's 300 ms budget of time\)/);
    expect(server.requests).toHaveLength(1);
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

  it("journals each retry of a run's model call (ModelRetried), and a permanent failure with its status; a replay reproduces both", async () => {
    const done = { content: null, tool_calls: [{ id: "d", type: "function", function: { name: "done", arguments: '{"summary":"ok","evidence":[]}' } }] };
    server = await startWireServer((_req, n) =>
      n === 0
        ? { status: 529, body: { error: { message: "overloaded" } } }
        : n === 1
          ? { body: completion(done, { prompt_tokens: 5, completion_tokens: 1 }) }
          : { status: 401, body: "bad key" },
    );
    const client = openAiCompatibleClient({ baseUrl: server.url, model: "m", retry: recordingRetry().policy });
    const agent = await makeAgent();
    const { runId, result } = await startRun(getDb(), { agent, client, tools: scratchTools(), root: makeScratchRepo(), task: "t", system: "s" });
    expect(result.status).toBe("done");
    const events = await loadRunEvents(getDb(), runId);
    expect(events.map((e) => e.kind)).toEqual(["RunStarted", "ModelCalled", "ModelRetried", "ModelResponded", "BudgetDebited", "AgentFinished"]);
    expect(events[2].data).toMatchObject({ attempt: 1, status: 529, delayMs: 375 });
    expect(await replayRun(events)).toMatchObject({ identical: true });

    const failed = startRun(getDb(), { agent, client, tools: scratchTools(), root: makeScratchRepo(), task: "t", system: "s", runId: `run_401_${Date.now()}` });
    await expect(failed).rejects.toMatchObject({ status: 401, permanent: true });
    const [failure] = (await getDb().select().from(eventsTable).where(eq(eventsTable.kind, "ModelFailed"))).filter((e) => e.actor === agent.id);
    expect(failure.data).toMatchObject({ status: 401, permanent: true, attempts: 1, error: expect.stringContaining("bad key") });
  });
});

// The model check against a loopback server: each problem is one line naming the variable to fix.
import { afterEach, describe, expect, it } from "vitest";
import { probeLines, probeModel } from "./probe";
import { recordingRetry, startWireServer, type WireServer } from "./wire-server";

let server: WireServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const completion = (message: object) => ({ model: "served", choices: [{ message }], usage: { prompt_tokens: 5, completion_tokens: 2 } });
const ping = { content: null, tool_calls: [{ id: "p", type: "function", function: { name: "ping", arguments: '{"ok":true}' } }] };
const retry = () => recordingRetry(2).policy;

describe("quorum model check", () => {
  it("says the model works when it answers with the ping tool call, and asks it exactly that", async () => {
    server = await startWireServer(() => ({ body: completion(ping) }));
    const env = { QUORUM_MODEL: "m", QUORUM_OPENAI_BASE_URL: `${server.url}/v1`, QUORUM_OPENAI_API_KEY: "k" };
    const result = await probeModel(env, retry());
    expect(result).toMatchObject({ ok: true, model: "openai-compatible:m", problems: [] });
    expect(probeLines(result)).toEqual(["The model openai-compatible:m answers and calls tools (served as served), for every role."]);
    expect(server.requests[0].body).toMatchObject({ tools: [{ function: { name: "ping" } }] });
  });

  it("names the variable to fix for a refused key, an unknown model, a server that is down, prose and a foreign wire", async () => {
    const replies = [
      { status: 401, body: { error: { message: "bad key" } } },
      { status: 404, body: { error: { message: "no such model" } } },
      { body: completion({ content: "Sure! Pong." }) },
      { body: "<html>proxy</html>" },
      { status: 503, body: "down" },
      { status: 503, body: "down" },
    ];
    server = await startWireServer((_req, n) => replies[n]);
    const env = { QUORUM_MODEL: "openai:m", QUORUM_OPENAI_BASE_URL: `${server.url}/v1`, QUORUM_OPENAI_API_KEY: "k" };
    const lines = [];
    for (let i = 0; i < 5; i++) lines.push(...probeLines(await probeModel(env, retry())));
    expect(lines).toEqual([
      "Model check: QUORUM_OPENAI_API_KEY was refused (HTTP 401)",
      `Model check: QUORUM_MODEL=openai:m is not known at ${server.url}/v1 (HTTP 404): check the model's name and QUORUM_OPENAI_BASE_URL`,
      "Model check: QUORUM_MODEL=openai:m answered in prose (“Sure! Pong.”) instead of calling the ping tool: the team needs a model with tool calling",
      expect.stringMatching(/^Model check: QUORUM_OPENAI_BASE_URL=.* does not answer in the OpenAI chat-completions format/),
      `Model check: QUORUM_OPENAI_BASE_URL=${server.url}/v1 answered HTTP 503 (overloaded or failing): try again later`,
    ]);

    const closed = server.url;
    await server.close();
    server = undefined;
    const down = await probeModel({ QUORUM_MODEL: "m", QUORUM_OPENAI_BASE_URL: `${closed}/v1` }, retry());
    expect(probeLines(down)).toEqual([expect.stringMatching(new RegExp(`^Model check: QUORUM_OPENAI_BASE_URL=${closed}/v1 is unreachable: cannot reach .*ECONNREFUSED`))]);
  });

  it("names the Anthropic key, a half-configured model, and says when none is configured", async () => {
    server = await startWireServer(() => ({ status: 403, body: { type: "error", error: { type: "permission_error", message: "no" } } }));
    const refused = await probeModel({ QUORUM_MODEL: "anthropic:c", QUORUM_ANTHROPIC_API_KEY: "k", QUORUM_ANTHROPIC_BASE_URL: server.url }, retry());
    expect(refused.problems).toEqual(["QUORUM_ANTHROPIC_API_KEY was refused (HTTP 403)"]);
    expect((await probeModel({ QUORUM_MODEL: "anthropic:c" }, retry())).problems).toEqual(["QUORUM_MODEL=anthropic:c needs QUORUM_ANTHROPIC_API_KEY."]);
    expect(await probeModel({}, retry())).toMatchObject({ ok: true, model: null, summary: expect.stringContaining("runs scripted") });
  });
});

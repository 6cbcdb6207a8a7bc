// Choosing the live client from the environment: nothing configured is null, half-configured is an error.
import { afterEach, describe, expect, it } from "vitest";
import { modelClientFromEnv } from "./from-env";
import { startWireServer, type WireServer } from "./wire-server";

let server: WireServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("modelClientFromEnv", () => {
  it("is null when no model is configured", () => {
    expect(modelClientFromEnv({})).toBeNull();
  });

  it("names the client by its wire and model", () => {
    expect(modelClientFromEnv({ QUORUM_MODEL: "openai:gpt-4.1-mini", QUORUM_OPENAI_API_KEY: "k" })!.name).toBe("openai-compatible:gpt-4.1-mini");
    expect(modelClientFromEnv({ QUORUM_MODEL: "anthropic:claude-x", QUORUM_ANTHROPIC_API_KEY: "k" })!.name).toBe("anthropic:claude-x");
    // A local server's model name may hold colons of its own.
    expect(modelClientFromEnv({ QUORUM_MODEL: "llama3.1:8b", QUORUM_OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" })!.name).toBe("openai-compatible:llama3.1:8b");
  });

  it("refuses a half-configured model instead of falling back to the scripted roles", () => {
    expect(() => modelClientFromEnv({ QUORUM_MODEL: "anthropic:claude-x" })).toThrow(/needs QUORUM_ANTHROPIC_API_KEY/);
    expect(() => modelClientFromEnv({ QUORUM_MODEL: "openai:gpt-x" })).toThrow(/needs QUORUM_OPENAI_API_KEY/);
    expect(() => modelClientFromEnv({ QUORUM_MODEL: "mistral-large" })).toThrow(/no known prefix/);
    expect(() => modelClientFromEnv({ QUORUM_OPENAI_BASE_URL: "http://127.0.0.1:8000/v1" })).toThrow(/names no model/);
    expect(() => modelClientFromEnv({ QUORUM_MODEL: "openai:m", QUORUM_OPENAI_API_KEY: "k", QUORUM_MODEL_MAX_TOKENS: "lots" })).toThrow(/positive integer/);
    expect(() => modelClientFromEnv({ QUORUM_MODEL: "openai:m", QUORUM_OPENAI_API_KEY: "k", QUORUM_MODEL_TIMEOUT_MS: "soon" })).toThrow(/QUORUM_MODEL_TIMEOUT_MS must be/);
  });

  it("points the configured client at the configured server, with its key and output ceiling", async () => {
    server = await startWireServer(() => ({ body: { model: "local", choices: [{ message: { content: "hi" } }], usage: { prompt_tokens: 3, completion_tokens: 1 } } }));
    const client = modelClientFromEnv({
      QUORUM_MODEL: "openai:local",
      QUORUM_OPENAI_BASE_URL: `${server.url}/v1`,
      QUORUM_OPENAI_API_KEY: "sk-local",
      QUORUM_MODEL_MAX_TOKENS: "256",
    })!;
    expect((await client.complete([{ role: "user", content: "hello" }], [])).text).toBe("hi");
    expect(server.requests[0]).toMatchObject({ path: "/v1/chat/completions", headers: { authorization: "Bearer sk-local" }, body: { model: "local", max_tokens: 256 } });
  });
});

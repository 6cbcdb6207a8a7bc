// Choosing the live client from the environment: nothing configured is null, half-configured is an error.
import { afterEach, describe, expect, it } from "vitest";
import { modelClientFromEnv, modelClientsFromEnv, roleModelsFromEnv } from "./from-env";
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

  it("gives each role QUORUM_MODEL_<ROLE> over QUORUM_MODEL, one client per distinct model", () => {
    const env = {
      QUORUM_MODEL: "anthropic:claude-big",
      QUORUM_ANTHROPIC_API_KEY: "ak",
      QUORUM_MODEL_REVIEWER: "openai:gpt-small",
      QUORUM_MODEL_TESTER: "openai:gpt-small",
      QUORUM_OPENAI_API_KEY: "sk",
    };
    const clients = modelClientsFromEnv(env)!;
    expect(clients.orchestrator.name).toBe("anthropic:claude-big");
    expect(clients.coder).toBe(clients.orchestrator);
    expect(clients.reviewer.name).toBe("openai-compatible:gpt-small");
    expect(clients.tester).toBe(clients.reviewer);
    const { distinct } = roleModelsFromEnv(env);
    expect(distinct.map((d) => [d.variable, d.client.name, d.roles])).toEqual([
      ["QUORUM_MODEL", "anthropic:claude-big", ["orchestrator", "coder"]],
      ["QUORUM_MODEL_REVIEWER", "openai-compatible:gpt-small", ["reviewer", "tester"]],
    ]);
    // Every role named on its own needs no QUORUM_MODEL.
    const own = { QUORUM_OPENAI_BASE_URL: "http://127.0.0.1:1/v1", QUORUM_MODEL_ORCHESTRATOR: "a", QUORUM_MODEL_CODER: "b", QUORUM_MODEL_REVIEWER: "a", QUORUM_MODEL_TESTER: "a" };
    expect(roleModelsFromEnv(own).distinct.map((d) => d.client.name)).toEqual(["openai-compatible:a", "openai-compatible:b"]);
  });

  it("names the role's variable when its value is bad, and refuses a typo or a role left without a model", () => {
    const base = { QUORUM_MODEL: "openai:m", QUORUM_OPENAI_API_KEY: "k" };
    expect(() => modelClientsFromEnv({ ...base, QUORUM_MODEL_REVIEWER: "anthropic:claude-x" })).toThrow(
      /^QUORUM_MODEL_REVIEWER=anthropic:claude-x needs QUORUM_ANTHROPIC_API_KEY\./,
    );
    expect(() => modelClientsFromEnv({ ...base, QUORUM_MODEL_CODER: "anthropic:" })).toThrow(/^QUORUM_MODEL_CODER=anthropic: needs a model name after the colon\./);
    expect(() => modelClientsFromEnv({ ...base, QUORUM_MODEL_TESTER: "mistral-large" })).toThrow(/^QUORUM_MODEL_TESTER=mistral-large names no known prefix/);
    expect(() => modelClientsFromEnv({ ...base, QUORUM_MODEL_REVEIWER: "openai:n" })).toThrow(
      /^QUORUM_MODEL_REVEIWER names no role: the roles are QUORUM_MODEL_ORCHESTRATOR, QUORUM_MODEL_CODER/,
    );
    expect(() => modelClientsFromEnv({ QUORUM_OPENAI_API_KEY: "k", QUORUM_MODEL_REVIEWER: "openai:n" })).toThrow(
      /^QUORUM_MODEL_REVIEWER is set but QUORUM_MODEL is not: orchestrator, coder, tester would have no model\./,
    );
    // The shared settings are not roles.
    expect(modelClientsFromEnv({ ...base, QUORUM_MODEL_MAX_TOKENS: "100", QUORUM_MODEL_TIMEOUT_MS: "1000" })!.coder.name).toBe("openai-compatible:m");
  });
});

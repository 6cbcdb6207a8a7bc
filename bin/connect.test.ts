// `quorum connect`: registers once, re-keys after, and prints configurations that a real MCP client can use.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { getDb } from "../db/client";
import { makeHuman, uniqueName } from "../test/helpers";
import { ok, routeFetch } from "../test/mcp/client";
import { clientConfig, CLIENTS, connectBanner, credentialsFor } from "./connect";

/** The first JSON object printed after `label`. */
function jsonAfter(text: string, label: string) {
  const from = text.indexOf("{", text.indexOf(label));
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    depth += text[i] === "{" ? 1 : text[i] === "}" ? -1 : 0;
    if (depth === 0) return JSON.parse(text.slice(from, i + 1));
  }
  throw new Error(`no JSON after ${label}`);
}

async function connectWith(url: string, headers: Record<string, string>) {
  const client = new Client({ name: "connect-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: routeFetch(), requestInit: { headers } }));
  return client;
}

describe("quorum connect", () => {
  it("registers the agent the first time and rotates its key after: only the newest key works", async () => {
    const name = uniqueName("claude");
    const first = await credentialsFor(getDb(), name, "coder");
    const second = await credentialsFor(getDb(), name, "coder");
    expect([first.created, second.created]).toEqual([true, false]);
    expect(second.key).not.toBe(first.key);
    const client = await connectWith("http://localhost/api/mcp", { Authorization: `Bearer ${second.key}` });
    expect((await ok(client, "whoami")).name).toBe(name);
    await client.close();
    await expect(connectWith("http://localhost/api/mcp", { Authorization: `Bearer ${first.key}` })).rejects.toThrow(/401|unknown or revoked/i);
    expect(connectBanner(second)).toMatch(/its key was rotated \(its old keys no longer work\)/);
    const human = await makeHuman();
    await expect(credentialsFor(getDb(), human.name, "coder")).rejects.toThrow(/is a human/);
  });

  it("prints each client's configuration, and the printed HTTP configuration connects as the agent", async () => {
    const { name, key } = await credentialsFor(getDb(), uniqueName("cursor"), "coder");
    const base = "http://localhost";
    for (const client of CLIENTS) {
      const text = clientConfig(client, { base, key, profile: "worker" });
      expect(text, client).toContain(`${base}/api/mcp?profile=worker`);
      expect(text, client).toContain(key);
      expect(text, client).toMatch(/bin\/quorum\.sh/);
      console.log(`--- quorum connect ${client} --agent ${name} --profile worker\n${text}`);
    }
    const claude = jsonAfter(clientConfig("claude", { base, key }), ".mcp.json").mcpServers.quorum;
    expect(claude.type).toBe("http");
    const cursor = jsonAfter(clientConfig("cursor", { base, key, profile: "chat" }), "mcp.json").mcpServers.quorum;
    const codex = clientConfig("codex", { base, key });
    expect(codex).toContain('bearer_token_env_var = "QUORUM_KEY"');
    expect(codex).toContain(`url = "${base}/api/mcp"`);
    for (const server of [claude, cursor]) {
      const client = await connectWith(server.url, server.headers);
      expect((await ok(client, "whoami")).name).toBe(name);
      await client.close();
    }
  });
});

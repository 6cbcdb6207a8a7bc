// `quorum mcp` over stdio, spawned as a client would: the same full cycle, relayed to a real HTTP hub.
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAgent } from "../test/helpers";
import { runFullCycle } from "../test/mcp/full-cycle";
import { MCP_ROUTE, ok, serve } from "../test/mcp/client";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
let hub: Awaited<ReturnType<typeof serve>>;

beforeAll(async () => {
  hub = await serve([MCP_ROUTE]);
});
afterAll(async () => {
  await hub.close();
});

async function stdioClient(key: string, profile?: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: `${ROOT}node_modules/.bin/tsx`,
    args: [`${ROOT}bin/quorum.ts`, "mcp", ...(profile ? ["--profile", profile] : [])],
    // Only the hub's address and the key: the relay needs no database.
    env: { PATH: process.env.PATH ?? "", QUORUM_URL: hub.url, QUORUM_KEY: key },
    cwd: ROOT,
    stderr: "pipe",
  });
  const client = new Client({ name: "quorum-stdio-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

describe("quorum mcp (stdio)", () => {
  it("runs the full cycle through the spawned relay", async () => {
    await runFullCycle((key) => stdioClient(key));
  }, 90_000);

  it("passes the profile on, and answers a bad key with an error instead of hanging", async () => {
    const ada = await makeAgent();
    const chat = await stdioClient(ada.key, "chat");
    expect((await chat.listTools()).tools.map((t) => t.name)).toContain("post_message");
    expect((await chat.listTools()).tools.map((t) => t.name)).not.toContain("claim_next_task");
    expect((await ok(chat, "whoami")).name).toBe(ada.name);
    await chat.close();
    await expect(stdioClient("qk_forged")).rejects.toThrow(/401|unknown or revoked|unauthorized/i);
  }, 60_000);
});

// Issue 14 item 7: the MCP endpoint checks Origin (the MCP spec's defence against DNS rebinding). A request
// from a foreign page is refused 403 JSON before its key is used; none (CLI clients) or the hub's own is served.
import { afterAll, describe, expect, it, vi } from "vitest";
const mcpPost = apiHandler("POST", "/api/mcp");
import { call, makeAgent } from "../../test/helpers";
import { originAllowed } from "./origin";
import { apiHandler } from "../../test/api";

const whoami = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "whoami", arguments: {} } };
const accept = "application/json, text/event-stream";

async function callAs(key: string, url: string, headers: Record<string, string>) {
  const host = new URL(url).host;
  return call(mcpPost, new URL(url).pathname, { key, body: whoami, headers: { accept, host, ...headers } });
}

// The hub's own address; domain/config.ts reads QUORUM_URL once, on first use: set before any test runs.
vi.stubEnv("QUORUM_URL", "http://127.0.0.1:3000");
afterAll(() => void vi.unstubAllEnvs());

describe("the MCP endpoint and Origin", () => {
  it("refuses a rebinding page 403 JSON, and serves a CLI client (no Origin) and the hub's own page", async () => {
    const agent = await makeAgent();
    const url = "http://127.0.0.1:3000/api/mcp";
    // A page at attacker.example whose name now resolves to 127.0.0.1: it says so in both Origin and Host.
    const rebound = await callAs(agent.key, "http://rebind.attacker.example:3000/api/mcp", { origin: "http://rebind.attacker.example:3000" });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toMatchObject({ error: "forbidden", message: expect.stringContaining("rebind.attacker.example") });
    const foreign = await callAs(agent.key, url, { origin: "http://evil.example" });
    expect(foreign.status).toBe(403);
    expect((await callAs(agent.key, url, { origin: "null" })).status).toBe(403);
    // Another local app (another port) is another origin.
    expect((await callAs(agent.key, url, { origin: "http://localhost:5173" })).status).toBe(403);

    const cli = await callAs(agent.key, url, {});
    expect(cli.status).toBe(200);
    expect(JSON.stringify(cli.body)).toContain(agent.name);
    expect((await callAs(agent.key, url, { origin: "http://127.0.0.1:3000" })).status).toBe(200);
    // QUORUM_URL's origin is the hub's own even when the request names the host another way.
    expect((await callAs(agent.key, "http://localhost:3000/api/mcp", { origin: "http://127.0.0.1:3000" })).status).toBe(200);
  });

  it("knows the hub's own origin: QUORUM_URL's, or the host the request was sent to when that is localhost or an IP", () => {
    const hub = "https://quorum.example.com";
    expect(originAllowed(null, "anything", hub)).toBe(true);
    expect(originAllowed("https://quorum.example.com", "quorum.example.com", hub)).toBe(true);
    expect(originAllowed("http://quorum.example.com", "quorum.example.com", hub)).toBe(false);
    expect(originAllowed("http://localhost:3000", "localhost:3000", undefined)).toBe(true);
    expect(originAllowed("http://[::1]:3000", "[::1]:3000", undefined)).toBe(true);
    expect(originAllowed("http://192.168.1.5:3000", "192.168.1.5:3000", undefined)).toBe(true);
    // A name equal to Host proves nothing after a rebinding.
    expect(originAllowed("http://rebind.attacker.example:3000", "rebind.attacker.example:3000", undefined)).toBe(false);
    expect(originAllowed("http://localhost:3000", "127.0.0.1:3000", undefined)).toBe(false);
    expect(originAllowed("not a url", "localhost:3000", undefined)).toBe(false);
  });
});

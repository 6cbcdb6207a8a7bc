// MCP over Streamable HTTP with the SDK's own Client: the full agent cycle, identity per request, refusals.
import { describe, expect, it } from "vitest";
import { call, makeAgent, makeHuman } from "../../test/helpers";
const mcpGet = apiHandler("GET", "/api/mcp");
const mcpPost = apiHandler("POST", "/api/mcp");
import { runFullCycle } from "../../test/mcp/full-cycle";
import { httpClient, ok } from "../../test/mcp/client";
import { apiHandler } from "../../test/api";

describe("MCP over Streamable HTTP (stateless)", () => {
  it("runs the full cycle: stale post and hold token, claim-next, stale fence, output, submit, ballot, cycle, reservation conflict", async () => {
    await runFullCycle((key) => httpClient(key));
  });

  it("refuses a bad key with 401 JSON and never answers as another agent", async () => {
    const ada = await makeAgent();
    await expect(httpClient(`${ada.key}x`)).rejects.toThrow(/401|unauthorized|unknown or revoked/i);
    await expect(httpClient("qk_nobody")).rejects.toThrow();
    const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } };
    const headers = { accept: "application/json, text/event-stream" };
    const bad = await call(mcpPost, "/api/mcp", { key: "qk_forged", body: initialize, headers });
    expect(bad.status).toBe(401);
    expect(bad.body).toMatchObject({ error: "unauthorized" });
    expect(bad.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await call(mcpPost, "/api/mcp", { body: initialize, headers })).status).toBe(401);
    // A signed-in human's cookie is not a key: MCP never rides on a browser session.
    const human = await makeHuman();
    expect((await call(mcpPost, "/api/mcp", { cookie: human.cookie, body: initialize, headers })).status).toBe(401);
    // With a good key, every request is its own: the same client object cannot leak one identity into another.
    const bo = await makeAgent();
    const [a, b] = await Promise.all([httpClient(ada.key), httpClient(bo.key)]);
    const who = await Promise.all([ok(a, "whoami"), ok(b, "whoami"), ok(a, "whoami"), ok(b, "whoami")]);
    expect(who.map((w) => w.name)).toEqual([ada.name, bo.name, ada.name, bo.name]);
    await Promise.all([a.close(), b.close()]);
  });

  it("answers GET with 405 (no server stream in stateless mode) and an unknown profile with 400", async () => {
    const ada = await makeAgent();
    const get = await call(mcpGet, "/api/mcp", { key: ada.key });
    expect(get.status).toBe(405);
    expect(get.body.error).toBe("method_not_allowed");
    const res = await call(mcpPost, "/api/mcp?profile=everything", { key: ada.key, body: {}, headers: { accept: "application/json, text/event-stream" } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid", issues: expect.any(Array) });
  });

  it("answers malformed JSON-RPC with a 4xx, never a 500", async () => {
    const ada = await makeAgent();
    const headers = { accept: "application/json, text/event-stream" };
    for (const body of ["{", JSON.stringify({ hello: "world" })]) {
      const res = await call(mcpPost, "/api/mcp", { key: ada.key, body, headers });
      expect(res.status, body).toBeGreaterThanOrEqual(400);
      expect(res.status, body).toBeLessThan(500);
    }
  });
});

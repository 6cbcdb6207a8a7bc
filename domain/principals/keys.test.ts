// Keys end: a human rotates an agent's key (the old ones refused at once, on REST and MCP) or revokes them all;
// agents may do neither; every change is journalled without the secret.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
const revokeRoute = apiHandler("DELETE", "/api/agents/[id]/keys");
const rotateRoute = apiHandler("POST", "/api/agents/[id]/keys");
const meRoute = apiHandler("GET", "/api/me");
import { systemClock } from "../clock";
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { httpClient, ok } from "../../test/mcp/client";
import { rotateAgentKey } from "./keys";
import { apiHandler } from "../../test/api";

const path = (id: string) => `/api/agents/${encodeURIComponent(id)}/keys`;
const rotate = (id: string, who: { key?: string; cookie?: string }) => call(rotateRoute, path(id), { ...who, body: {}, params: { id } });
/** A browser's DELETE: same-origin, bodiless (no Content-Type). */
const revoke = (id: string, who: { key?: string; cookie?: string }, headers: Record<string, string> = {}) =>
  call(revokeRoute, path(id), { ...who, method: "DELETE", params: { id }, headers });
const me = (key: string) => call(meRoute, "/api/me", { key });

async function journal(kind: string, principalId: string) {
  return getDb().execute<{ actor: string | null; data: Record<string, unknown> }>(
    sql`select actor, data from events where kind = ${kind} and data->>'principalId' = ${principalId} order by id`,
  );
}

describe("rotating an agent's key", () => {
  it("issues a new key shown once and refuses the old one at once, on REST and MCP; journalled without the key", async () => {
    const human = await makeHuman();
    const agent = await makeAgent();
    const before = await httpClient(agent.key);
    expect((await ok(before, "whoami")).name).toBe(agent.name);

    const rotated = await rotate(agent.id, { cookie: human.cookie });
    expect(rotated.status).toBe(201);
    expect(rotated.body).toMatchObject({ id: agent.id, name: agent.name, revoked: 1 });
    expect(rotated.body.key).toMatch(/^qk_/);
    expect(rotated.headers.get("cache-control")).toBe("no-store");

    expect((await me(agent.key)).status).toBe(401);
    expect(await me(rotated.body.key)).toMatchObject({ status: 200, body: { id: agent.id } });
    // The MCP client connected before the rotation is refused on its very next call.
    await expect(before.callTool({ name: "whoami", arguments: {} })).rejects.toThrow(/401|unknown or revoked/i);
    await expect(httpClient(agent.key)).rejects.toThrow(/401|unknown or revoked/i);
    const after = await httpClient(rotated.body.key);
    expect((await ok(after, "whoami")).name).toBe(agent.name);
    await Promise.all([before.close(), after.close()]);

    // By name too; the second rotation ends the first's key.
    const again = await rotate(agent.name, { cookie: human.cookie });
    expect(again.status).toBe(201);
    expect((await me(rotated.body.key)).status).toBe(401);
    expect((await me(again.body.key)).status).toBe(200);

    const events = await journal("AgentKeyRotated", agent.id);
    expect(events).toEqual([
      { actor: human.id, data: { principalId: agent.id, name: agent.name, revoked: 1 } },
      { actor: human.id, data: { principalId: agent.id, name: agent.name, revoked: 1 } },
    ]);
    const everything = JSON.stringify(await getDb().execute(sql`select data from events`));
    for (const key of [agent.key, rotated.body.key, again.body.key]) expect(everything).not.toContain(key.slice(3));
  });

  it("leaves exactly one live key when two rotations race", async () => {
    const agent = await makeAgent();
    const [a, b] = await Promise.all([rotateAgentKey(getDb(), null, agent.id, systemClock), rotateAgentKey(getDb(), null, agent.id, systemClock)]);
    const statuses = (await Promise.all([me(a.key), me(b.key), me(agent.key)])).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 401, 401]);
    const [{ live }] = await getDb().execute<{ live: number }>(sql`select count(*)::int as live from api_keys where principal_id = ${agent.id} and revoked_at is null`);
    expect(live).toBe(1);
  });
});

describe("revoking an agent's keys", () => {
  it("locks the agent out on REST and MCP until a human rotates it a new key", async () => {
    const human = await makeHuman();
    const agent = await makeAgent();
    const revoked = await revoke(agent.id, { cookie: human.cookie });
    expect(revoked.status).toBe(204);
    expect(revoked.body).toBeUndefined();
    expect((await me(agent.key)).status).toBe(401);
    await expect(httpClient(agent.key)).rejects.toThrow(/401|unknown or revoked/i);
    // Nothing left to revoke: still 204, and journalled as such.
    expect((await revoke(agent.name, { cookie: human.cookie })).status).toBe(204);
    expect(await journal("AgentKeysRevoked", agent.id)).toEqual([
      { actor: human.id, data: { principalId: agent.id, name: agent.name, revoked: 1 } },
      { actor: human.id, data: { principalId: agent.id, name: agent.name, revoked: 0 } },
    ]);
    const back = await rotate(agent.id, { cookie: human.cookie });
    expect(back.body.revoked).toBe(0);
    expect((await me(back.body.key)).status).toBe(200);
  });
});

describe("who may end keys", () => {
  it("refuses agents (403, even for their own key) and anonymous callers (401), and names no agent it does not know (404)", async () => {
    const human = await makeHuman();
    const agent = await makeAgent();
    const other = await makeAgent();
    for (const target of [agent, other]) {
      expect(await rotate(target.id, { key: agent.key })).toMatchObject({ status: 403, body: { error: "forbidden" } });
      expect(await revoke(target.id, { key: agent.key })).toMatchObject({ status: 403, body: { error: "forbidden" } });
    }
    expect((await rotate(agent.id, {})).status).toBe(401);
    expect((await revoke(agent.id, {})).status).toBe(401);
    for (const nobody of [human.id, human.name, "00000000-0000-4000-8000-000000000000", "no-such-agent", "quorum"]) {
      expect(await rotate(nobody, { cookie: human.cookie }), nobody).toMatchObject({ status: 404, body: { error: "not_found" } });
      expect((await revoke(nobody, { cookie: human.cookie })).status, nobody).toBe(404);
    }
    // No name at all: refused as a malformed path (400) or as naming nobody (404), never a 500 and never a change.
    for (const malformed of ["a\u0000b", "x".repeat(5000)]) {
      expect([400, 404]).toContain((await rotate(malformed, { cookie: human.cookie })).status);
      expect([400, 404]).toContain((await revoke(malformed, { cookie: human.cookie })).status);
    }
    expect(await rotate(agent.id, { cookie: human.cookie })).toMatchObject({ status: 201 });
    expect((await call(rotateRoute, path(agent.id), { cookie: human.cookie, body: { key: "mine" }, params: { id: agent.id } })).status).toBe(400);
  });

  it("refuses a cookie-signed DELETE from another site, and revokes nothing", async () => {
    const human = await makeHuman();
    const agent = await makeAgent();
    expect((await revoke(agent.id, { cookie: human.cookie }, { origin: "https://evil.example" })).status).toBe(403);
    expect((await me(agent.key)).status).toBe(200);
    expect((await revoke(agent.id, { cookie: human.cookie }, { origin: "http://localhost" })).status).toBe(204);
    expect((await me(agent.key)).status).toBe(401);
  });
});

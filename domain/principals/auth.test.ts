// Sign-in links, sessions, bearer keys, and who may register agents.
import { describe, expect, it } from "vitest";
import { getConnection, getDb } from "../../db/client";
import { manualClock, systemClock } from "../clock";
const meRoute = apiHandler("GET", "/api/me");
const agentsRoute = apiHandler("GET", "/api/agents");
const createAgentRoute = apiHandler("POST", "/api/agents");
import { GET as signInRoute } from "../../app/signin/route";
import { call, makeAgent, makeHuman, uniqueName } from "../../test/helpers";
import { ensureHuman } from "./create-principal";
import { issueSignInLink, redeemSignInLink } from "./sign-in";
import { apiHandler } from "../../test/api";

describe("sign-in links", () => {
  it("work once and set an HttpOnly, SameSite=Lax session cookie", async () => {
    const human = await ensureHuman(getDb(), uniqueName("ada"), systemClock);
    const token = await issueSignInLink(getDb(), human, systemClock);
    const first = await signInRoute(new Request(`http://localhost/signin?token=${token}`));
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toBe("/room");
    const cookie = first.headers.get("set-cookie")!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const me = await call(meRoute, "/api/me", { cookie: cookie.split(";")[0] });
    expect(me.body).toMatchObject({ id: human.id, kind: "human" });
    const second = await signInRoute(new Request(`http://localhost/signin?token=${token}`));
    expect(second.headers.get("location")).toMatch(/welcome/);
    expect(second.headers.get("set-cookie")).toBeNull();
  });

  it("expire after 15 minutes", async () => {
    const clock = manualClock();
    const human = await ensureHuman(getDb(), uniqueName("grace"), systemClock);
    const token = await issueSignInLink(getDb(), human, clock);
    clock.advance(15 * 60 * 1000 + 1);
    await expect(redeemSignInLink(getDb(), token, clock)).rejects.toThrow(/expired/);
  });
});

describe("keys and roles", () => {
  it("stores keys and session tokens only as hashes", async () => {
    const agent = await makeAgent();
    const human = await makeHuman();
    const { sql } = getConnection();
    const keys = await sql`select key_hash from api_keys`;
    expect(keys.some((k) => k.key_hash === agent.key)).toBe(false);
    expect(keys.every((k) => /^[0-9a-f]{64}$/.test(k.key_hash))).toBe(true);
    const sessions = await sql`select token_hash from sessions`;
    expect(sessions.some((s) => human.cookie.endsWith(s.token_hash))).toBe(false);
  });

  it("lets a human register an agent and shows the key once; agents get 403", async () => {
    const human = await makeHuman();
    const name = uniqueName("coder");
    const created = await call(createAgentRoute, "/api/agents", { cookie: human.cookie, body: { name, role: "coder" } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name, role: "coder" });
    expect(created.body.key).toMatch(/^qk_/);
    const me = await call(meRoute, "/api/me", { key: created.body.key });
    expect(me.body).toMatchObject({ name, kind: "agent", role: "coder" });
    const roster = await call(agentsRoute, "/api/agents", { key: created.body.key });
    const entry = roster.body.items.find((p: { name: string }) => p.name === name);
    expect(entry).toMatchObject({ present: true });
    expect(entry.key).toBeUndefined();
    const byAgent = await call(createAgentRoute, "/api/agents", { key: created.body.key, body: { name: uniqueName("x"), role: "coder" } });
    expect(byAgent.status).toBe(403);
    const taken = await call(createAgentRoute, "/api/agents", { cookie: human.cookie, body: { name, role: "coder" } });
    expect(taken.status).toBe(409);
    const invalid = await call(createAgentRoute, "/api/agents", { cookie: human.cookie, body: { name: "has space", role: "" } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.issues.length).toBe(2);
  });

  it("answers 401 with no credentials and for an unknown session", async () => {
    expect((await call(meRoute, "/api/me")).status).toBe(401);
    expect((await call(meRoute, "/api/me", { cookie: "quorum_session=qc_forged" })).status).toBe(401);
  });
});

// Signing out ends the session on the server (the old cookie is refused everywhere) and clears the cookie;
// a key is not a session; the session cookie is Secure whenever the hub is served over https (this file's hub
// is http; secure-cookie.test.ts starts one at an https QUORUM_URL).
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import { getDb } from "../../db/client";
const meRoute = apiHandler("GET", "/api/me");
const signOutRoute = apiHandler("POST", "/api/session/sign-out");
import { GET as signInRoute } from "../../app/signin/route";
import { systemClock } from "../clock";
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { issueSignInLink, redeemSignInLink } from "./sign-in";
import { clearedSessionCookie, secureCookies, sessionCookie } from "./session-cookie";
import { apiHandler } from "../../test/api";

// domain/config.ts reads QUORUM_URL once, on first use: set before any test runs.
vi.stubEnv("QUORUM_URL", "http://127.0.0.1:3000");
afterAll(() => void vi.unstubAllEnvs());

const signOut = (who: { key?: string; cookie?: string }, headers: Record<string, string> = {}) => call(signOutRoute, "/api/session/sign-out", { ...who, body: {}, headers });

describe("signing out", () => {
  it("ends this session on the server and clears the cookie; the old cookie is 401 from then on", async () => {
    const human = await makeHuman();
    // The same human signed in in a second browser: that session is not this one, and lives on.
    const { sessionToken } = await redeemSignInLink(getDb(), await issueSignInLink(getDb(), human, systemClock), systemClock);
    const elsewhere = `quorum_session=${sessionToken}`;

    const out = await signOut({ cookie: human.cookie });
    expect(out.status).toBe(204);
    const cleared = out.headers.get("set-cookie") ?? "";
    expect(cleared).toMatch(/^quorum_session=;/);
    expect(cleared).toMatch(/Max-Age=0/);
    expect(cleared).toMatch(/HttpOnly/);

    expect((await call(meRoute, "/api/me", { cookie: human.cookie })).status).toBe(401);
    expect((await signOut({ cookie: human.cookie })).status).toBe(401);
    expect(await call(meRoute, "/api/me", { cookie: elsewhere })).toMatchObject({ status: 200, body: { id: human.id } });

    const ended = await getDb().execute<{ actor: string; data: Record<string, unknown> }>(sql`select actor, data from events where kind = 'SessionEnded' and actor = ${human.id}`);
    expect(ended).toHaveLength(1);
    expect(ended[0].data).toEqual({ sessionId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(JSON.stringify(await getDb().execute(sql`select data from events`))).not.toContain(human.cookie.split("=")[1].slice(3));
  });

  it("is refused to an agent's key (403) and to no one (401), and to another site (403)", async () => {
    const agent = await makeAgent();
    const human = await makeHuman();
    expect(await signOut({ key: agent.key })).toMatchObject({ status: 403, body: { error: "forbidden", message: expect.stringMatching(/only a human/) } });
    // An agent's key beside a human's cookie still acts as the agent: it cannot end the human's session.
    expect((await signOut({ key: agent.key, cookie: human.cookie })).status).toBe(403);
    expect((await signOut({})).status).toBe(401);
    expect((await signOut({ cookie: human.cookie }, { origin: "https://evil.example" })).status).toBe(403);
    expect((await call(meRoute, "/api/me", { cookie: human.cookie })).status).toBe(200);
    expect((await call(meRoute, "/api/me", { key: agent.key })).status).toBe(200);
  });
});

describe("the session cookie", () => {
  it("is Secure exactly when QUORUM_URL is https", () => {
    const expires = new Date("2030-01-01T00:00:00Z");
    expect(secureCookies("https://quorum.example.com")).toBe(true);
    expect(secureCookies("HTTPS://quorum.example.com")).toBe(true);
    expect(secureCookies("http://127.0.0.1:3000")).toBe(false);
    expect(secureCookies(undefined)).toBe(false);
    expect(sessionCookie("qc_x", expires, true)).toBe("quorum_session=qc_x; Path=/; HttpOnly; SameSite=Lax; Secure; Expires=Tue, 01 Jan 2030 00:00:00 GMT");
    expect(sessionCookie("qc_x", expires, false)).not.toMatch(/Secure/);
    expect(clearedSessionCookie(true)).toMatch(/; Secure;/);
    expect(clearedSessionCookie(false)).not.toMatch(/Secure/);
  });

  it("is neither set nor cleared Secure when the hub is http", async () => {
    const human = await makeHuman();
    const plain = await signInRoute(new Request(`http://localhost/signin?token=${await issueSignInLink(getDb(), human, systemClock)}`));
    const cookie = plain.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^quorum_session=/);
    expect(cookie).not.toMatch(/Secure/);
    const out = await signOut({ cookie: cookie.split(";")[0] });
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).not.toMatch(/Secure/);
  });

  it("with a malformed escape names no session (401, not 500)", async () => {
    expect((await call(meRoute, "/api/me", { cookie: "quorum_session=%E0%A4%A" })).status).toBe(401);
  });
});

// A hub served over https (QUORUM_URL=https://…): the sign-in link sets the session cookie Secure and
// sign-out clears it Secure, so it never travels in clear text. domain/config.ts reads QUORUM_URL once, on
// first use, so it is set here before any test runs (each test file loads its modules afresh).
import { afterAll, describe, expect, it, vi } from "vitest";
const signOutRoute = apiHandler("POST", "/api/session/sign-out");
import { GET as signInRoute } from "../../app/signin/route";
import { getDb } from "../../db/client";
import { call, makeHuman } from "../../test/helpers";
import { systemClock } from "../clock";
import { issueSignInLink } from "./sign-in";
import { apiHandler } from "../../test/api";

vi.stubEnv("QUORUM_URL", "https://quorum.example.com");
afterAll(() => void vi.unstubAllEnvs());

describe("the session cookie of an https hub", () => {
  it("is set Secure by the sign-in link and cleared Secure by sign-out", async () => {
    const human = await makeHuman();
    const token = await issueSignInLink(getDb(), human, systemClock);
    const signedIn = await signInRoute(new Request(`http://localhost/signin?token=${token}`));
    const cookie = signedIn.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^quorum_session=.*; Secure/);
    const out = await call(signOutRoute, "/api/session/sign-out", { cookie: cookie.split(";")[0], body: {} });
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toMatch(/; Secure/);
  });
});

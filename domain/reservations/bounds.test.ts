// Issue 34's pattern attacks, over the real routes: each bound is checked on the request's text before
// any expansion or matching, refused with its reason and nothing granted; what stays allowed is
// matched without backtracking and answered correctly.
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
const checkRoute = apiHandler("POST", "/api/reservations/check");
const reserveRoute = apiHandler("POST", "/api/reservations");
import { events } from "../../db/schema";
import { getDb } from "../../db/client";
import { call, makeAgent } from "../../test/helpers";
import { MAX_CHECKED_BYTES } from "./check-paths";
import { MAX_EXPANSIONS, MAX_GRANT_EXPANSIONS, MAX_SEGMENT_WILDCARDS } from "./patterns";
import { apiHandler } from "../../test/api";

type Auth = { key: string };
const reserve = (auth: Auth, body: Record<string, unknown>) => call(reserveRoute, "/api/reservations", { ...auth, body: { reason: "editing", ...body } });
const check = (auth: Auth, body: Record<string, unknown>) => call(checkRoute, "/api/reservations/check", { ...auth, body });
const granted = async (actor: string) =>
  (
    await getDb()
      .select()
      .from(events)
      .where(and(eq(events.kind, "ReservationGranted"), eq(events.actor, actor)))
  ).length;

describe("reservation patterns bounded before any work", () => {
  it("refuses brace products, crowded segments and extglobs with their reason, granting nothing", async () => {
    const agent = await makeAgent();
    const attacks: [string[], string][] = [
      [Array.from({ length: 32 }, (_, i) => `p${i}/${"{a,b}".repeat(18)}`), `more than ${MAX_EXPANSIONS} globs`],
      [["{1..64}{1..64}{1..64}"], `more than ${MAX_EXPANSIONS} globs`],
      [[`src/${"*a".repeat(12)}*b`], `more than ${MAX_SEGMENT_WILDCARDS} wildcards`],
      [["src/@(a|b).ts"], "extglobs"],
      [["src/{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}/x"], `more than ${MAX_EXPANSIONS} globs`],
      [["a/{1..64}", "b/{1..64}", "c/{1..2}"], `at most ${MAX_GRANT_EXPANSIONS} globs together`],
    ];
    for (const [patterns, reason] of attacks) {
      const refused = await reserve(agent, { patterns, scope: `bounds-${agent.name}` });
      expect(refused.status, patterns[0]).toBe(400);
      expect(JSON.stringify(refused.body.issues), patterns[0]).toContain(reason);
    }
    expect(await granted(agent.id)).toBe(0);
    // The same shapes within their bounds are granted.
    for (const patterns of [["src/{a,b}/{c,d}.ts"], ["src/*a*a*b"], ["a/{1..64}", "b/{1..64}"]]) {
      expect((await reserve(agent, { patterns, scope: `bounds-ok-${agent.name}-${patterns.join("").replace(/\W/g, "")}` })).status, patterns[0]).toBe(201);
    }
  });

  it("answers a check of 5,000 long names against a backtracking-prone glob, holding exactly the names it matches", async () => {
    const [holder, checker] = [await makeAgent(), await makeAgent()];
    const scope = `backtrack-${holder.name}`;
    expect((await reserve(holder, { patterns: ["src/*a*a*a*b"], scope })).status).toBe(201);
    const names = Array.from({ length: 5_000 }, (_, i) => `src/${"a".repeat(40 + (i % 10))}`);
    names[17] = `src/${"a".repeat(40)}b`;
    const answer = await check(checker, { paths: names, scope });
    expect(answer.status).toBe(200);
    expect(answer.body.blocked.map((hold: { path: string }) => hold.path)).toEqual([names[17]]);
  });

  it("refuses a check whose paths total more than its byte cap, before matching", async () => {
    const agent = await makeAgent();
    const paths = Array.from({ length: 100 }, (_, i) => `src/${i}/${"x".repeat(3_000)}`);
    expect(paths.join("").length).toBeGreaterThan(MAX_CHECKED_BYTES);
    const refused = await check(agent, { paths });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body.issues)).toContain("check in batches");
  });
});

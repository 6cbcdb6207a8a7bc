// Issue 14 item 9 (reservations): what one agent may hold. No glob over the whole repository, a lease of at
// most 2 hours (grant and renewal), at most 8 live reservations at once; humans are exempt.
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { events } from "../../db/schema";
import { getDb } from "../../db/client";
const reserveRoute = apiHandler("POST", "/api/reservations");
const renewRoute = apiHandler("POST", "/api/reservations/[id]/renew");
const releaseRoute = apiHandler("POST", "/api/reservations/[id]/release");
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { MAX_AGENT_RESERVATIONS, MAX_AGENT_TTL_SECONDS } from "./limits";
import { apiHandler } from "../../test/api";

const reserve = (auth: { key?: string; cookie?: string }, body: Record<string, unknown>) =>
  call(reserveRoute, "/api/reservations", { ...auth, body: { reason: "editing", ...body } });

async function grants(actor: string) {
  return getDb()
    .select()
    .from(events)
    .where(and(eq(events.kind, "ReservationGranted"), eq(events.actor, actor)));
}

describe("what an agent may reserve", () => {
  it("refuses ** for 24 hours, and every glob that reaches over the whole repository, 400 naming the pattern", async () => {
    const agent = await makeAgent();
    const scope = `whole-${agent.name}`;
    const everything = await reserve(agent, { patterns: ["**"], ttlSeconds: 86_400, scope });
    expect(everything.status).toBe(400);
    for (const pattern of ["**", "**/*", "**/*.ts", "*/**", "./**", "**/", "{src,**}", "s*/**", "**/src/**", "**/src/*.ts"]) {
      const refused = await reserve(agent, { patterns: ["docs/a.md", pattern], scope });
      expect(refused.status, pattern).toBe(400);
      expect(refused.body).toMatchObject({ error: "invalid", issues: [{ path: ["patterns", 1], message: expect.stringContaining("whole repository") }] });
    }
    // Under a named folder, named files (anywhere, too), and root-level globs without ** are fine.
    for (const patterns of [["src/**"], ["src/lib/**/*.ts"], ["README.md", "package.json"], ["*.md"], ["{src,test}/**"], ["**/x.ts"]]) {
      const granted = await reserve(agent, { patterns, scope: `${scope}-${patterns.join("").replace(/\W/g, "")}` });
      expect(granted.status, patterns.join(" ")).toBe(201);
    }
    expect(await grants(agent.id)).toHaveLength(6);
  });

  it("caps an agent's lease at 2 hours when granted and when renewed", async () => {
    const agent = await makeAgent();
    const scope = `ttl-${agent.name}`;
    const long = await reserve(agent, { patterns: ["src/**"], ttlSeconds: MAX_AGENT_TTL_SECONDS + 1, scope });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ error: "invalid", maxTtlSeconds: MAX_AGENT_TTL_SECONDS, issues: [{ path: ["ttlSeconds"] }] });
    const granted = await reserve(agent, { patterns: ["src/**"], ttlSeconds: MAX_AGENT_TTL_SECONDS, scope });
    expect(granted.status).toBe(201);
    const { id, fence } = granted.body;
    const renew = (ttlSeconds: number) => call(renewRoute, `/api/reservations/${id}/renew`, { key: agent.key, params: { id }, body: { fence, ttlSeconds } });
    expect((await renew(86_400)).status).toBe(400);
    expect((await renew(3_600)).status).toBe(200);
  });

  it("lets an agent hold at most 8 live reservations across scopes: the 9th is 409 until one is released", async () => {
    const agent = await makeAgent();
    const held: { id: string; fence: number }[] = [];
    for (let i = 0; i < MAX_AGENT_RESERVATIONS; i++) {
      const granted = await reserve(agent, { patterns: [`pkg${i}/**`], scope: `many-${agent.name}-${i % 3}` });
      expect(granted.status, `reservation ${i + 1}`).toBe(201);
      held.push(granted.body);
    }
    const ninth = await reserve(agent, { patterns: ["pkg9/**"], scope: `many-${agent.name}-9` });
    expect(ninth.status).toBe(409);
    expect(ninth.body).toMatchObject({ error: "too_many_reservations", limit: MAX_AGENT_RESERVATIONS, held: MAX_AGENT_RESERVATIONS });
    // Another agent is not affected; releasing one makes room.
    expect((await reserve(await makeAgent(), { patterns: ["pkg9/**"], scope: `many-${agent.name}-other` })).status).toBe(201);
    const { id, fence } = held[0];
    expect((await call(releaseRoute, `/api/reservations/${id}/release`, { key: agent.key, params: { id }, body: { fence } })).status).toBe(200);
    expect((await reserve(agent, { patterns: ["pkg9/**"], scope: `many-${agent.name}-9` })).status).toBe(201);
  });

  it("holds under concurrency: 12 grants at once in 12 scopes give 8", async () => {
    const agent = await makeAgent();
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => reserve(agent, { patterns: [`lib${i}/**`], scope: `race-${agent.name}-${i}` })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(MAX_AGENT_RESERVATIONS);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(12 - MAX_AGENT_RESERVATIONS);
  });

  it("exempts humans: a person may freeze the whole tree for a day", async () => {
    const human = await makeHuman();
    const frozen = await reserve({ cookie: human.cookie }, { patterns: ["**"], ttlSeconds: 86_400, scope: `freeze-${human.name}`, reason: "release freeze" });
    expect(frozen.status).toBe(201);
    expect(frozen.body.ttlSeconds).toBe(86_400);
  });
});

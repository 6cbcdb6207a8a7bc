// quorum/client stays in step with the API: client/schema.ts is exactly what the document generates now, and
// the client it types talks to the real route handlers (a register → post → ack → claim round, through fetch).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { quorumClient } from "../../client";
import { discoverEndpoints } from "../../test/api-catalog";
import { makeAgent, makeHuman } from "../../test/helpers";
import { CLIENT_SCHEMA_PATH, clientSchemaSource } from "./client-source";

describe("quorum/client", () => {
  it("is generated from the current document (run `npm run client:generate` after changing surfaces/http/ or a route's schema)", async () => {
    expect(readFileSync(CLIENT_SCHEMA_PATH, "utf8")).toBe(await clientSchemaSource());
  }, 60_000);

  it("takes an agent from its key to a claimed task against the route handlers", async () => {
    const endpoints = new Map((await discoverEndpoints()).map((e) => [e.key, e]));
    /** Next's router, in miniature: the route whose pattern matches the path, with its params. */
    const fetch = async (request: Request) => {
      const { pathname } = new URL(request.url);
      for (const e of endpoints.values()) {
        if (e.method !== request.method) continue;
        const names: string[] = [];
        const re = new RegExp(
          `^${e.route.replace(/\[(\w+)\]/g, (_, n: string) => {
            names.push(n);
            return "([^/]+)";
          })}$`,
        );
        const m = re.exec(pathname);
        if (m) return e.handler(request, { params: Promise.resolve(Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1])]))) });
      }
      return new Response(null, { status: 404 });
    };
    const human = await makeHuman();
    const agent = await makeAgent();
    const baseUrl = "http://localhost";
    const asHuman = quorumClient({ baseUrl, cookie: human.cookie, headers: { origin: baseUrl }, fetch });
    const quorum = quorumClient({ baseUrl, key: agent.key, fetch });

    const me = await quorum.GET("/api/me");
    expect(me.data?.name).toBe(agent.name);
    const room = `client-${Date.now().toString(36)}`;
    await asHuman.POST("/api/rooms", { body: { name: room } });
    await asHuman.POST("/api/rooms/{room}/messages", { params: { path: { room } }, body: { body: "read me first" } });
    // The first surprise: a post before reading the room is refused stale, with what to read and a hold token.
    const first = await quorum.POST("/api/rooms/{room}/messages", { params: { path: { room } }, body: { body: "hello" } });
    expect(first.response.status).toBe(409);
    expect(first.error).toMatchObject({ error: "stale", holdToken: expect.any(String) });
    const inbox = await quorum.GET("/api/rooms/{room}/inbox", { params: { path: { room } } });
    const lastSeq = Math.max(...(inbox.data?.items ?? []).map((m) => m.seq));
    await quorum.POST("/api/rooms/{room}/cursor", { params: { path: { room } }, body: { seq: lastSeq } });
    const posted = await quorum.POST("/api/rooms/{room}/messages", { params: { path: { room } }, body: { body: "hello" } });
    expect(posted.response.status).toBe(201);

    const task = await asHuman.POST("/api/tasks", { body: { title: "client round", acceptanceCriteria: "it claims" } });
    expect(task.response.status).toBe(201);
    const claimed = await quorum.POST("/api/tasks/{id}/claim", { params: { path: { id: task.data!.id } }, body: {} });
    expect(claimed.data).toMatchObject({ status: "in_progress", ownerId: agent.id, fence: 1 });
    const beat = await quorum.POST("/api/tasks/{id}/heartbeat", { params: { path: { id: task.data!.id } }, body: { fence: claimed.data!.fence } });
    expect(beat.response.status).toBe(200);
  });
});

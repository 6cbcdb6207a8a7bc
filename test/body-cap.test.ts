// Issue 14 item 4: every route refuses a body over 1 MiB with 413 payload_too_large while it streams in,
// before parsing: a declared Content-Length over the cap is refused before a byte is read, and an
// undeclared (chunked) upload is cut off once the cap is passed, the rest never pulled. MCP likewise.
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../db/client";
import { MAX_BODY_BYTES } from "../domain/request-shape";
import { discoverEndpoints, type Endpoint } from "./api-catalog";
import { makeAgent, makeHuman } from "./helpers";

const MiB = 1024 * 1024;

/** A JSON body that never ends on its own: `{"body":"xxxx…`, served 64 KiB per pull, counting what was pulled. */
function endlessBody(limit = 64 * MiB) {
  let pulled = 0;
  const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"body":"'));
      },
      pull(controller) {
        if (pulled >= limit) return controller.close();
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => pulled };
}

/** A request as Next hands it over: the route's path with its params filled in. */
function request(endpoint: Endpoint, init: { headers: Record<string, string>; body: BodyInit }): { req: Request; params: Record<string, string> } {
  const params: Record<string, string> = {};
  const path = endpoint.route.replace(/\[(\w+)\]/g, (_, name: string) => {
    params[name] = name === "room" ? "general" : crypto.randomUUID();
    return params[name];
  });
  const req = new Request(`http://localhost${path}`, {
    method: endpoint.method,
    headers: { host: "localhost", "content-type": "application/json", ...init.headers },
    body: init.body,
    duplex: "half",
  } as RequestInit);
  return { req, params };
}

/** A refusal's REST body, or the one a JSON-RPC error (A2A's) carries in its `quorum` ErrorInfo. */
function refusalOf(json: Record<string, unknown>): { error?: unknown; limitBytes?: unknown } {
  const rpc = json.error as { data?: { domain?: string; metadata?: Record<string, string> }[] } | string | undefined;
  if (typeof rpc !== "object") return json;
  const info = rpc.data?.find((d) => d.domain === "quorum")?.metadata ?? {};
  return { error: info.error, limitBytes: Number(info.limitBytes) };
}

const eventCount = async () => (await getDb().execute<{ n: number }>(sql`select count(*)::int as n from events`))[0].n;

let withBodies: Endpoint[];

beforeAll(async () => {
  withBodies = (await discoverEndpoints()).filter((e) => e.method !== "GET" && e.route !== "/api/mcp");
});

describe("the request body cap (1 MiB)", () => {
  it("refuses a declared Content-Length over 1 MiB on every route with a body, before reading any of it", async () => {
    const human = await makeHuman();
    const before = await eventCount();
    const answers: string[] = [];
    for (const endpoint of withBodies) {
      const body = endlessBody();
      const { req, params } = request(endpoint, { headers: { cookie: human.cookie, "content-length": String(2 * MiB) }, body: body.stream });
      const response = await endpoint.handler(req, { params: Promise.resolve(params) });
      const json = refusalOf(await response.json());
      if (response.status !== 413 || json.error !== "payload_too_large" || json.limitBytes !== MAX_BODY_BYTES || body.pulled() > 0) {
        answers.push(`${endpoint.key}: ${response.status} ${JSON.stringify(json).slice(0, 100)}, pulled ${body.pulled()}`);
      }
    }
    expect(answers).toEqual([]);
    expect(await eventCount()).toBe(before);
  });

  it("cuts off an undeclared (chunked) upload once it passes 1 MiB: a route reads the cap and no more, or nothing", async () => {
    const agent = await makeAgent();
    const before = await eventCount();
    const answers: string[] = [];
    let cutOff = 0;
    for (const endpoint of withBodies) {
      const body = endlessBody();
      const { req, params } = request(endpoint, { headers: { authorization: `Bearer ${agent.key}` }, body: body.stream });
      const started = performance.now();
      const response = await endpoint.handler(req, { params: Promise.resolve(params) });
      const json = refusalOf(await response.json());
      const ms = Math.round(performance.now() - started);
      // Of a 64 MiB upload, a route that reads its body pulls the cap and at most a chunk or two more, then
      // answers 413; one that takes no body (a DELETE, a refusal before the body) never pulls a byte.
      if (response.status === 413 && json.error === "payload_too_large" && body.pulled() <= MAX_BODY_BYTES + 256 * 1024) cutOff++;
      else if (body.pulled() > 0) answers.push(`${endpoint.key}: ${response.status} ${json.error}, pulled ${body.pulled()} bytes in ${ms} ms`);
    }
    expect(answers).toEqual([]);
    expect(cutOff).toBeGreaterThan(25);
    expect(await eventCount()).toBe(before);
  });

  it("takes a 2 MiB message body as 413 and posts nothing; just under the cap, the 16 KiB rule answers as before", async () => {
    const agent = await makeAgent();
    const post = (await discoverEndpoints()).find((e) => e.key === "POST /api/rooms/[room]/messages")!;
    const before = await eventCount();
    const big = request(post, { headers: { authorization: `Bearer ${agent.key}` }, body: JSON.stringify({ body: "x".repeat(2 * MiB) }) });
    const refused = await post.handler(big.req, { params: Promise.resolve(big.params) });
    expect(refused.status).toBe(413);
    expect(await refused.json()).toEqual({ error: "payload_too_large", message: expect.stringContaining("1048576 bytes"), limitBytes: MAX_BODY_BYTES });
    const under = request(post, { headers: { authorization: `Bearer ${agent.key}` }, body: JSON.stringify({ body: "x".repeat(MiB - 100) }) });
    const answer = await post.handler(under.req, { params: Promise.resolve(under.params) });
    expect(answer.status).toBe(400);
    expect(await eventCount()).toBe(before);
  });

  it("MCP cuts off its own uploads the same way (413 while streaming)", async () => {
    const agent = await makeAgent();
    const mcp = (await discoverEndpoints()).find((e) => e.key === "POST /api/mcp")!;
    const body = endlessBody();
    const { req } = request(mcp, { headers: { authorization: `Bearer ${agent.key}`, accept: "application/json, text/event-stream" }, body: body.stream });
    const response = await mcp.handler(req, { params: Promise.resolve({}) });
    expect(response.status).toBe(413);
    expect(body.pulled()).toBeLessThanOrEqual(MAX_BODY_BYTES + 256 * 1024);
    const declared = endlessBody();
    const early = request(mcp, {
      headers: { authorization: `Bearer ${agent.key}`, accept: "application/json, text/event-stream", "content-length": String(2 * MiB) },
      body: declared.stream,
    });
    expect((await mcp.handler(early.req, { params: Promise.resolve({}) })).status).toBe(413);
    expect(declared.pulled()).toBe(0);
  });
});

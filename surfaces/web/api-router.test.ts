// The lean router on a real node:http server, over the real route files and a real database: what the API
// kept from Next (headers, refusals, HEAD/OPTIONS, streaming both ways, the abort signal) and what it adds.
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endlessUpload, UPLOAD_LIMIT_BYTES } from "../../test/fixtures/endless-upload";
import { makeAgent } from "../../test/helpers";
import { z } from "zod";
import { createApiRouter as createRouter } from "../http/router";
import { ROUTES } from "../http/routes";
import { endpoint, TAGS } from "../http/routes/route-spec";
import { createApiRouter } from "./api-router";

/** Endpoints that exist only here, to drive the router's own paths (a throw, a slow stream). */
function probe(name: string, run: (request: Request) => Promise<Response>) {
  return endpoint({
    method: "get",
    path: `/api/probe/${name}`,
    tag: TAGS.health,
    summary: name,
    access: "public",
    answers: [{ status: 200, description: "probe", schema: z.unknown() }],
    refusals: [],
    run: ({ request }) => run(request),
  });
}

let streamAborted: () => void = () => {};
const aborted = new Promise<void>((resolve) => (streamAborted = resolve));
let releaseSecondChunk: () => void = () => {};
const secondChunk = new Promise<void>((resolve) => (releaseSecondChunk = resolve));

const probeRoutes = [
  probe("boom", async () => {
    throw new Error("a handler bug (expected by this test)");
  }),
  probe("slow", async (request) => {
    request.signal.addEventListener("abort", () => streamAborted());
    const encoder = new TextEncoder();
    return new Response(
      new ReadableStream({
        async start(controller) {
          controller.enqueue(encoder.encode("first\n"));
          await secondChunk;
          controller.enqueue(encoder.encode("second\n"));
        },
      }),
      { headers: { "Content-Type": "text/plain" } },
    );
  }),
];

let server: Server;
let base: string;

beforeAll(async () => {
  const router = createApiRouter(createRouter([...ROUTES, ...probeRoutes]));
  server = createServer((req, res) => void router(req, res));
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((closed) => server.close(closed));
});

describe("the lean API router", () => {
  it("answers with the route's body and the security headers of every page", async () => {
    const response = await fetch(`${base}/api/health`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("same-origin");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("content-length")).not.toBeNull();
  });

  it("refuses a path that does not decode (400), an unknown one (404) and a method the route lacks (405 with Allow)", async () => {
    const bad = await fetch(`${base}/api/tasks/%FF/claim`, { method: "POST" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: "invalid", issues: [{ path: ["path", 2] }] });
    const badHost = await new Promise<number>((resolve, reject) =>
      httpRequest(`${base}/api/health`, { headers: { host: "no host" } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      })
        .on("error", reject)
        .end(),
    );
    expect(badHost).toBe(400);
    const unknown = await fetch(`${base}/api/no-such-thing`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: "not_found" });
    expect(unknown.headers.get("x-content-type-options")).toBe("nosniff");
    const wrong = await fetch(`${base}/api/health`, { method: "DELETE" });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(await wrong.json()).toMatchObject({ error: "method_not_allowed" });
  });

  it("answers HEAD from GET without a body, OPTIONS with Allow, and redirects a trailing slash as Next does", async () => {
    const head = await fetch(`${base}/api/health`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const options = await fetch(`${base}/api/tasks/x/claim`, { method: "OPTIONS" });
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe("OPTIONS, POST");
    const slash = await fetch(`${base}/api/health/?a=1`, { redirect: "manual" });
    expect(slash.status).toBe(308);
    expect(slash.headers.get("location")).toBe("/api/health?a=1");
  });

  it("passes dynamic params and the caller's credentials to the route", async () => {
    const agent = await makeAgent();
    const me = await fetch(`${base}/api/me`, { headers: { authorization: `Bearer ${agent.key}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ id: agent.id });
    const posted = await fetch(`${base}/api/rooms/general/messages`, {
      method: "POST",
      headers: { authorization: `Bearer ${agent.key}`, "content-type": "application/json" },
      body: JSON.stringify({ body: "hello through the lean router" }),
    });
    expect(posted.status).toBe(201);
    expect(await posted.json()).toMatchObject({ room: "general", body: "hello through the lean router" });
  });

  it("refuses a chunked body over 1 MiB with 413 while it is still being sent", async () => {
    const agent = await makeAgent();
    const { status, body, sent } = await endlessUpload(`${base}/api/rooms/general/messages`, { authorization: `Bearer ${agent.key}` });
    expect(status).toBe(413);
    expect(JSON.parse(body)).toMatchObject({ error: "payload_too_large" });
    expect(sent).toBeLessThan(UPLOAD_LIMIT_BYTES);
  });

  it("turns a handler that throws into a 500 JSON answer and keeps serving", async () => {
    const boom = await fetch(`${base}/api/probe/boom`);
    expect(boom.status).toBe(500);
    expect(await boom.json()).toMatchObject({ error: "internal" });
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
  });

  it("writes a streamed body chunk by chunk, and aborts request.signal when the client goes away", async () => {
    const client = new AbortController();
    const response = await fetch(`${base}/api/probe/slow`, { signal: client.signal });
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("first\n");
    client.abort();
    await expect(Promise.race([aborted.then(() => "aborted"), new Promise((r) => setTimeout(() => r("still open"), 5_000))])).resolves.toBe("aborted");
    releaseSecondChunk();
  });

  it("streams the journal as Server-Sent Events", async () => {
    const agent = await makeAgent();
    const client = new AbortController();
    const stream = await fetch(`${base}/api/stream`, { headers: { authorization: `Bearer ${agent.key}` }, signal: client.signal });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toBe("text/event-stream");
    const reader = stream.body!.getReader();
    let text = "";
    const until = async (needle: string) => {
      const deadline = Date.now() + 10_000;
      while (!text.includes(needle) && Date.now() < deadline) text += new TextDecoder().decode((await reader.read()).value);
      return text.includes(needle);
    };
    expect(await until("event: ready")).toBe(true);
    const marker = `sse-${Date.now()}`;
    await fetch(`${base}/api/rooms/general/messages`, {
      method: "POST",
      headers: { authorization: `Bearer ${agent.key}`, "content-type": "application/json" },
      body: JSON.stringify({ body: marker }),
    });
    expect(await until("event: journal")).toBe(true);
    client.abort();
  });
});

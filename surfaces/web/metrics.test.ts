// /metrics and the API's latency on `quorum start`'s own composition (surfaces/web/dispatch.ts: the lean router watched, the
// exposition beside it), on a real node:http server: a scraper on this machine reads without a key, a proxied or
// remote one needs the token or a human; each API request lands in a histogram under its route's pattern, never
// its raw path; open event streams are counted, not timed.
import { vi } from "vitest";

vi.stubEnv("QUORUM_METRICS_TOKEN", "scraper-token-abcdef0123");

import { randomUUID } from "node:crypto";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { promtoolCheck, sample } from "../../test/fixtures/prometheus";
import { makeAgent } from "../../test/helpers";
import { createApiRouter } from "./api-router";
import { dispatch } from "./dispatch";
import { routeMatched } from "./request-watch";

let server: Server;
let base: string;

beforeAll(async () => {
  const api = createApiRouter(undefined, routeMatched);
  const pages = (_req: unknown, res: import("node:http").ServerResponse) => {
    res.statusCode = 404;
    res.end("a page");
  };
  server = createServer(dispatch({ api, pages, spans: null }));
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((closed) => server.close(closed));
});

const PROXIED = { "x-forwarded-for": "203.0.113.7" };

async function scrape(headers: Record<string, string> = {}) {
  const response = await fetch(`${base}/metrics`, { headers });
  return { status: response.status, text: await response.text() };
}

/** A histogram's request count for one method, route and status. */
function requests(exposition: string, method: string, route: string, status: number): number {
  return sample(exposition, `quorum_http_request_duration_seconds_count{method="${method}",route="${route}",status="${status}"}`) ?? 0;
}

describe("/metrics on quorum start's server", () => {
  it("answers a scraper on this machine without a key; through a proxy, only the token or a human, never an agent's key", async () => {
    const local = await scrape();
    expect(local.status).toBe(200);
    expect(promtoolCheck(local.text)).toEqual({ code: 0, problems: "" });
    const agent = await makeAgent();
    expect((await scrape(PROXIED)).status).toBe(401);
    expect((await scrape({ ...PROXIED, authorization: "Bearer scraper-token-abcdef0123" })).status).toBe(200);
    const refused = await fetch(`${base}/metrics`, { headers: { ...PROXIED, authorization: `Bearer ${agent.key}` } });
    expect([refused.status, (await refused.json()).error]).toEqual([403, "forbidden"]);
    const post = await fetch(`${base}/metrics`, { method: "POST" });
    expect([post.status, post.headers.get("allow")]).toEqual([405, "GET, HEAD"]);
    expect(local.text).not.toContain("<html");
  });

  it("refuses a loopback scrape sent to a rebound name (DNS rebinding): a page at attacker.example reads nothing without the token", async () => {
    const port = (server.address() as AddressInfo).port;
    const byHost = (host: string) =>
      new Promise<number>((done, failed) => {
        request({ host: "127.0.0.1", port, path: "/metrics", headers: { host } }, (res) => {
          res.resume();
          done(res.statusCode ?? 0);
        })
          .on("error", failed)
          .end();
      });
    expect(await byHost(`rebound.example:${port}`)).toBe(401);
    expect(await byHost(`localhost:${port}`)).toBe(200);
  });

  it("times each API request under its route's pattern (an unknown path as `unmatched`), never its raw path", async () => {
    const agent = await makeAgent();
    const id = randomUUID();
    const before = (await scrape()).text;
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    expect((await fetch(`${base}/api/tasks/${id}`, { headers: { authorization: `Bearer ${agent.key}` } })).status).toBe(404);
    expect((await fetch(`${base}/api/no-such-route/${id}`)).status).toBe(404);
    const after = (await scrape()).text;
    expect(requests(after, "GET", "/api/health", 200)).toBe(requests(before, "GET", "/api/health", 200) + 1);
    expect(requests(after, "GET", "/api/tasks/[id]", 404)).toBe(requests(before, "GET", "/api/tasks/[id]", 404) + 1);
    expect(requests(after, "GET", "unmatched", 404)).toBe(requests(before, "GET", "unmatched", 404) + 1);
    expect(after).not.toContain(id);
    expect(promtoolCheck(after)).toEqual({ code: 0, problems: "" });
  });

  it("counts the event streams it holds open and its announcer reading the tail (how late an event was announced); a stream is not timed as a request", async () => {
    const agent = await makeAgent();
    const client = new AbortController();
    const stream = await fetch(`${base}/api/stream`, { headers: { authorization: `Bearer ${agent.key}` }, signal: client.signal });
    const reader = stream.body!.getReader();
    let text = "";
    while (!text.includes("event: ready")) text += new TextDecoder().decode((await reader.read()).value);
    // An event while it listens: the announcer reads it off the journal's tail and says how late it was.
    const made = await fetch(`${base}/api/commitments`, {
      method: "POST",
      headers: { authorization: `Bearer ${agent.key}`, "content-type": "application/json" },
      body: JSON.stringify({ what: "a commitment to be announced" }),
    });
    expect(made.status).toBe(201);
    while (!text.includes(`"actor":"${agent.id}"`)) text += new TextDecoder().decode((await reader.read()).value);
    const open = (await scrape()).text;
    expect(sample(open, "quorum_sse_clients")).toBe(1);
    expect(sample(open, "quorum_announcer_running")).toBe(1);
    expect(sample(open, "quorum_announcer_delay_seconds")).toBeGreaterThan(0);
    expect(sample(open, "quorum_announcer_delay_seconds")).toBeLessThan(5);
    expect(sample(open, "quorum_announcer_read_age_seconds")).toBeLessThan(5);
    client.abort();
    await reader.cancel().catch(() => {});
    await expect.poll(async () => sample((await scrape()).text, "quorum_sse_clients"), { timeout: 5_000 }).toBe(0);
    expect((await scrape()).text).not.toContain('route="/api/stream"');
  });
});

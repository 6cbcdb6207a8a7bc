// `quorum start` serves /api/* from its lean router (surfaces/web/api-router.ts) and every other path from Next, on one
// port: checked through the real server as a client sees it — the API's headers and refusals, a streamed
// upload refused while it arrives, a live event stream, and pages still rendered by Next.
import { endlessUpload } from "../test/fixtures/endless-upload";
import { expect, test } from "./fixtures";

test("one server: the API from the lean router (headers, 400, 404 JSON, 413 while streaming, SSE), pages from Next", async ({ baseURL, registerAgent, asAgent }) => {
  const health = await fetch(`${baseURL}/api/health`);
  expect(health.status).toBe(200);
  expect(health.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  expect(health.headers.get("x-content-type-options")).toBe("nosniff");
  expect(health.headers.get("referrer-policy")).toBe("same-origin");

  // Next would answer these with its HTML 404 page and a bare 500; the router answers as the API does.
  const unknown = await fetch(`${baseURL}/api/no-such-route`);
  expect([unknown.status, (await unknown.json()).error]).toEqual([404, "not_found"]);
  const undecodable = await fetch(`${baseURL}/api/%FF`);
  expect([undecodable.status, (await undecodable.json()).error]).toEqual([400, "invalid"]);

  const page = await fetch(`${baseURL}/welcome`);
  expect(page.status).toBe(200);
  expect(page.headers.get("content-type")).toContain("text/html");
  expect(page.headers.get("x-content-type-options")).toBe("nosniff");

  const agent = await registerAgent();
  // A chunked upload (no Content-Length) keeps coming; the server must refuse it long before it ends.
  const upload = await endlessUpload(`${baseURL}/api/rooms/general/messages`, { authorization: `Bearer ${agent.key}` });
  expect([upload.status, JSON.parse(upload.body).error]).toEqual([413, "payload_too_large"]);

  // The live stream: ready, then the event of a change made after it.
  const client = new AbortController();
  const stream = await fetch(`${baseURL}/api/stream`, { headers: { authorization: `Bearer ${agent.key}` }, signal: client.signal });
  expect(stream.headers.get("content-type")).toBe("text/event-stream");
  const reader = stream.body!.getReader();
  let text = "";
  const until = async (needle: string) => {
    for (const end = Date.now() + 10_000; !text.includes(needle) && Date.now() < end; ) text += new TextDecoder().decode((await reader.read()).value);
    return text.includes(needle);
  };
  expect(await until("event: ready")).toBe(true);
  // A commitment (not a post: the room's freshness gate would hold a new agent that has not read it).
  expect((await asAgent(agent).post("/api/commitments", { what: `lean router ${Date.now()}` })).status).toBe(201);
  // A new agent: the only events it acts in come from here.
  expect(await until(`"actor":"${agent.id}"`)).toBe(true);
  client.abort();
});

// The live stream: a heartbeat event the browser can see, and a cap on the streams one principal holds open.
import { afterEach, describe, expect, it, vi } from "vitest";
const streamRoute = apiHandler("GET", "/api/stream");
import { makeAgent, makeHuman } from "../../test/helpers";
import { getDb } from "../../db/client";
import { systemClock } from "../clock";
import { rotateAgentKey, revokeAgentKeys } from "../principals/keys";
import { endSession } from "../principals/sign-out";
import { HEARTBEAT_MS, MAX_STREAMS_PER_PRINCIPAL, openStreamCount } from "./stream";
import { apiHandler } from "../../test/api";

interface Open {
  status: number;
  body: unknown;
  /** Everything read so far. */
  text: () => string;
  /** Resolves once the server ends the stream. */
  ended: Promise<void>;
  hangUp: () => void;
}

const opened: Open[] = [];

/** Opens /api/stream as Next would and keeps reading it in the background. */
async function open(auth: { key?: string; cookie?: string }): Promise<Open> {
  const abort = new AbortController();
  const headers: Record<string, string> = { host: "localhost" };
  if (auth.key) headers.authorization = `Bearer ${auth.key}`;
  if (auth.cookie) headers.cookie = auth.cookie;
  const response = await streamRoute(new Request("http://localhost/api/stream", { headers, signal: abort.signal }));
  if (!(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    const body = await response.json();
    return { status: response.status, body, text: () => "", ended: Promise.resolve(), hangUp: () => {} };
  }
  let text = "";
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const ended = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        text += decoder.decode(value, { stream: true });
      }
    } catch {
      // hung up
    }
  })();
  const stream: Open = {
    status: response.status,
    body: undefined,
    text: () => text,
    ended,
    hangUp: () => {
      abort.abort();
      void reader.cancel().catch(() => {});
    },
  };
  opened.push(stream);
  return stream;
}

async function until(what: string, check: () => boolean, ms = 5_000): Promise<void> {
  for (const deadline = Date.now() + ms; !check(); await new Promise((resolve) => setTimeout(resolve, 10))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}

afterEach(async () => {
  vi.useRealTimers();
  for (const s of opened.splice(0)) s.hangUp();
});

describe("the live stream", () => {
  it(`holds at most ${MAX_STREAMS_PER_PRINCIPAL} streams per principal: 429 too_many_streams beyond, a slot freed when a stream closes`, async () => {
    const [agent, other] = await Promise.all([makeAgent(), makeAgent()]);
    const streams: Open[] = [];
    for (let i = 0; i < MAX_STREAMS_PER_PRINCIPAL; i++) streams.push(await open({ key: agent.key }));
    expect(streams.map((s) => s.status)).toEqual(Array(MAX_STREAMS_PER_PRINCIPAL).fill(200));
    expect(openStreamCount(agent.id)).toBe(MAX_STREAMS_PER_PRINCIPAL);

    const refused = await open({ key: agent.key });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: "too_many_streams", limit: MAX_STREAMS_PER_PRINCIPAL });
    expect((refused.body as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(0);
    // The cap is per principal: another agent is served.
    expect((await open({ key: other.key })).status).toBe(200);

    streams[0].hangUp();
    await until("the slot to be released", () => openStreamCount(agent.id) === MAX_STREAMS_PER_PRINCIPAL - 1);
    expect((await open({ key: agent.key })).status).toBe(200);

    for (const s of opened) s.hangUp();
    await until("every slot to be released", () => openStreamCount(agent.id) === 0 && openStreamCount(other.id) === 0);
  });

  it("counts a principal's streams once per process, whichever copy of the module serves them (Next bundles its own)", async () => {
    const agent = await makeAgent();
    for (let i = 0; i < MAX_STREAMS_PER_PRINCIPAL; i++) expect((await open({ key: agent.key })).status).toBe(200);
    vi.resetModules();
    const copy = await import("./stream");
    expect(copy.openStreamCount).not.toBe(openStreamCount);
    expect(copy.openStreamCount(agent.id)).toBe(MAX_STREAMS_PER_PRINCIPAL);
    for (const s of opened) s.hangUp();
    await until("every slot to be released", () => copy.openStreamCount(agent.id) === 0);
  });

  it("sends a heartbeat event (not a comment, which an EventSource never sees) and says how often in ready", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const human = await makeHuman();
    const stream = await open({ cookie: human.cookie });
    await until("ready", () => stream.text().includes("event: ready"));
    expect(stream.text()).toContain(`event: ready\ndata: {"heartbeatMs":${HEARTBEAT_MS}}\n\n`);
    expect(HEARTBEAT_MS).toBeLessThanOrEqual(10_000);
    expect(stream.text()).not.toContain("event: heartbeat");
    vi.advanceTimersByTime(HEARTBEAT_MS);
    await until("a heartbeat", () => stream.text().includes("event: heartbeat\ndata: {}\n\n"));
    vi.advanceTimersByTime(HEARTBEAT_MS);
    await until("a second heartbeat", () => stream.text().split("event: heartbeat").length === 3);
  });

  it("ends a stream as soon as its key is rotated or revoked, or its session signed out; others stay open", async () => {
    const [rotated, revoked, bystander] = [await makeAgent(), await makeAgent(), await makeAgent()];
    const human = await makeHuman();
    const [a, b, c, h] = [await open({ key: rotated.key }), await open({ key: revoked.key }), await open({ key: bystander.key }), await open({ cookie: human.cookie })];
    await until("ready", () => [a, b, c, h].every((s) => s.text().includes("event: ready")));
    await rotateAgentKey(getDb(), human, rotated.id, systemClock);
    await a.ended;
    await revokeAgentKeys(getDb(), human, revoked.id, systemClock);
    await b.ended;
    await endSession(getDb(), human, human.cookie.split("=")[1], systemClock);
    await h.ended;
    expect([openStreamCount(rotated.id), openStreamCount(revoked.id), openStreamCount(human.id)]).toEqual([0, 0, 0]);
    expect(openStreamCount(bystander.id)).toBe(1);
  });
});

// Through a real `quorum start` (next start, HTTP, SSE): commit → event freshness on /api/stream against
// the journal's tail read bare (the same announcer the server runs, in the bench process on a connection
// of its own: writers no longer NOTIFY since migration 0023, so the floor is the poll itself), and the
// most used endpoints' p50/p99 under 8 clients against a raw SELECT.
import { quorumClient } from "../client";
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import postgres from "postgres";
import type { Connection } from "../db/client";
import { newHome, root, startQuorum, stopQuorum, type QuorumServer } from "../e2e/server";
import { appendEvent } from "../domain/journal/append";
import { startAnnouncer } from "../domain/journal/announcer";
import type { Principal } from "../domain/principal";
import { postMessage } from "../domain/rooms/post-message";
import { systemClock } from "../domain/clock";
import { body, latencies, median, percentile, progress, QUICK, record, REPS, sleep } from "./lib";

const SSE_SECONDS = QUICK ? 1 : 5;
const HTTP_REQUESTS = QUICK ? 64 : 800; // per endpoint per repetition, across 8 clients

/** Starts Quorum on the bench's database, without the built-in team (it would add its own load). */
export async function startLiveServer(url: string): Promise<QuorumServer> {
  progress("starting `quorum start` on the bench database (it builds the app first if .next holds no build)");
  const server = await startQuorum(newHome(), undefined, { DATABASE_URL: url, QUORUM_TEAM: "0" });
  progress(`  Quorum is serving at ${server.baseURL}`);
  return server;
}
export async function stopLiveServer(server: QuorumServer): Promise<void> {
  await stopQuorum(server);
  rmSync(server.home, { recursive: true, force: true });
}

/** Reads an SSE response frame by frame, noting when each event id arrived. */
function readFrames(response: Response, onReady: () => void, arrived: Map<number, number>): Promise<void> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  return (async () => {
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      const at = performance.now();
      buffer += decoder.decode(value, { stream: true });
      for (let cut = buffer.indexOf("\n\n"); cut >= 0; cut = buffer.indexOf("\n\n")) {
        const frame = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        if (frame.includes("event: ready")) onReady();
        const id = /^id: (\d+)$/m.exec(frame);
        if (id) arrived.set(Number(id[1]), at);
      }
    }
  })();
}

export async function benchFreshness(server: QuorumServer, c: Connection, url: string, agent: Principal & { key: string }) {
  for (const rate of [10, 100]) {
    const [sseP50, sseP99, nP50, nP99]: number[][] = [[], [], [], []];
    for (let rep = 1; rep <= REPS; rep++) {
      progress(`live freshness through ${server.baseURL}/api/stream at ${rate} events/s for ${SSE_SECONDS}s, rep ${rep}/${REPS}`);
      const issued = new Map<number, number>();
      const viaSse = new Map<number, number>();
      const viaListen = new Map<number, number>();
      const listener = postgres(url, { max: 1, onnotice: () => {} });
      const bare = startAnnouncer(
        listener,
        (notices) => {
          const at = performance.now();
          for (const n of notices) viaListen.set(n.id, at);
        },
        () => {},
      );
      await bare.ready;
      const abort = new AbortController();
      const response = await fetch(`${server.baseURL}/api/stream`, { headers: { authorization: `Bearer ${agent.key}` }, signal: abort.signal });
      if (!response.ok) throw new Error(`/api/stream answered ${response.status}`);
      let ready!: () => void;
      const isReady = new Promise<void>((r) => (ready = r));
      const reading = readFrames(response, ready, viaSse);
      await isReady;
      const count = Math.round(rate * SSE_SECONDS);
      const began = performance.now();
      const writes: Promise<void>[] = [];
      for (let i = 0; i < count; i++) {
        const wait = began + (i * 1000) / rate - performance.now();
        if (wait > 0) await sleep(wait);
        // From the moment the writing transaction is issued (commit included) to receipt: the same
        // starting point for the SSE client and the bare tail reader.
        const t0 = performance.now();
        writes.push(
          c.db
            .transaction((tx) => appendEvent(tx, { kind: "CursorAdvanced", actor: agent.id, t: new Date(), data: { room: "bench-fresh", seq: i, previous: i - 1 } }))
            .then((e) => void issued.set(e.id, t0)),
        );
      }
      await Promise.all(writes);
      for (let i = 0; i < 250 && (viaSse.size < issued.size || viaListen.size < issued.size); i++) await sleep(20);
      abort.abort();
      await reading;
      bare.stop();
      await listener.end({ timeout: 2 });
      const lat = (m: Map<number, number>) => [...issued].filter(([id]) => m.has(id)).map(([id, t0]) => m.get(id)! - t0);
      const [s, l] = [lat(viaSse), lat(viaListen)];
      if (s.length < issued.size || l.length < issued.size) throw new Error(`events missed: SSE ${s.length}, bare tail read ${l.length} of ${issued.size}`);
      sseP50.push(percentile(s, 50));
      sseP99.push(percentile(s, 99));
      nP50.push(percentile(l, 50));
      nP99.push(percentile(l, 99));
    }
    const note =
      "HTTP SSE client of the running server; from issuing the write (commit included) to receipt; the anchor is the server's own tail poll (every 10 ms within 500 ms of the last event, then backing off to 250 ms) run bare, not NOTIFY (gone since migration 0023)";
    record({
      section: "freshness",
      figure: `SSE /api/stream p50 at ${rate} events/s`,
      value: median(sseP50),
      unit: "ms",
      anchor: "bare journal tail read p50",
      anchorValue: median(nP50),
      better: "lower",
      note,
    });
    record({
      section: "freshness",
      figure: `SSE /api/stream p99 at ${rate} events/s`,
      value: median(sseP99),
      unit: "ms",
      anchor: "bare journal tail read p99",
      anchorValue: median(nP99),
      better: "lower",
      note,
    });
  }
}

/** bench/bare-health.ts in a child process; stopped by pid. */
async function startBareHealth(databaseUrl: string): Promise<{ url: string; stop: () => void }> {
  const child = spawn(join(root, "node_modules", ".bin", "tsx"), ["bench/bare-health.ts"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once("data", (chunk) => resolve(Number(String(chunk).trim())));
    child.once("exit", (code) => reject(new Error(`bench/bare-health.ts exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => void child.kill("SIGTERM") };
}

export async function benchHttp(server: QuorumServer, c: Connection, human: Principal & { cookie: string }, agents: (Principal & { key: string })[]) {
  const base = server.baseURL;
  let posted = 0;
  const expectOk = async (response: Promise<Response>) => {
    const r = await response;
    await r.arrayBuffer();
    if (r.status >= 300) throw new Error(`unexpected status ${r.status} from ${r.url}`);
  };
  // The endpoints are called the way a TypeScript agent would: through quorum/client.
  const answered = async (pending: Promise<{ response: Response }>) => {
    const { response } = await pending;
    if (response.status >= 300) throw new Error(`unexpected status ${response.status} from ${response.url}`);
  };
  const anonymous = quorumClient({ baseUrl: base });
  const asAgent = agents.map((a) => quorumClient({ baseUrl: base, key: a.key }));
  const asHuman = quorumClient({ baseUrl: base, cookie: human.cookie, headers: { origin: base } });
  const general = { path: { room: "general" } };
  const endpoints: { name: string; run: (client: number) => Promise<void> }[] = [
    // The floor of the stack itself: Next's routing and one SELECT 1, no auth, no rules.
    { name: "GET /api/health (the HTTP stack's floor)", run: () => answered(anonymous.GET("/api/health")) },
    { name: "GET /api/rooms/general/messages", run: (w) => answered(asAgent[w].GET("/api/rooms/{room}/messages", { params: { ...general, query: { limit: 50 } } })) },
    {
      name: "POST /api/rooms/general/messages (human)",
      run: () => answered(asHuman.POST("/api/rooms/{room}/messages", { params: general, body: { body: body(`http ${posted++}`) } })),
    },
    { name: "POST /api/rooms/general/cursor", run: (w) => answered(asAgent[w].POST("/api/rooms/{room}/cursor", { params: general, body: { seq: 1 } })) },
    { name: "GET /api/tasks", run: (w) => answered(asAgent[w].GET("/api/tasks", { params: { query: { status: "ready" } } })) },
    { name: "GET /api/journal", run: (w) => answered(asAgent[w].GET("/api/journal", { params: { query: { limit: 50 } } })) },
    { name: "GET /api/me", run: (w) => answered(asAgent[w].GET("/api/me")) },
  ];
  // Seed the room so the reads have a page to return.
  for (let i = 0; i < 60; i++) await postMessage(c.db, human, "general", { body: body(`seed ${i}`) }, systemClock);
  const anchor = async () => void (await c.sql`select * from messages where room = 'general' order by seq desc limit 50`);
  const anchorP50: number[] = [];
  const anchorP99: number[] = [];
  const results = new Map(endpoints.map((e) => [e.name, { p50: [] as number[], p99: [] as number[] }]));
  // Warm every route, and the 8 keep-alive connections each client pool will reuse, before timing: the quick
  // bench takes 64 requests per rep, and a cold first rep (8 TCP connects, route code loaded lazily, the JIT)
  // put GET /api/health's median at 8–11 ms while the same server answered warm at 4–7 ms (2026-11-30).
  await latencies(8, 16, anchor);
  for (const e of endpoints) await latencies(8, 16, e.run);
  for (let rep = 1; rep <= REPS; rep++) {
    progress(`HTTP API p50/p99 under 8 clients through ${base}, rep ${rep}/${REPS}`);
    const a = await latencies(8, HTTP_REQUESTS, anchor);
    anchorP50.push(a.p50);
    anchorP99.push(a.p99);
    for (const e of endpoints) {
      const r = await latencies(8, HTTP_REQUESTS, e.run);
      results.get(e.name)!.p50.push(r.p50);
      results.get(e.name)!.p99.push(r.p99);
    }
  }
  // The floor against a bare node:http server doing the same SELECT 1 in a process of its own: what the web
  // server's request path costs by itself (issue 16: Next's was ~75% of the floor, so /api/* now has a lean
  // router, surfaces/web/serve.ts).
  const bare = await startBareHealth(server.env.DATABASE_URL!);
  try {
    const [oursP50, oursP99, bareP50, bareP99]: number[][] = [[], [], [], []];
    for (let rep = 1; rep <= REPS; rep++) {
      progress(`GET /api/health: quorum start vs a bare node:http server, 8 clients, rep ${rep}/${REPS}`);
      const b = await latencies(8, HTTP_REQUESTS, () => expectOk(fetch(`${bare.url}/api/health`)));
      const n = await latencies(8, HTTP_REQUESTS, () => expectOk(fetch(`${base}/api/health`)));
      bareP50.push(b.p50);
      bareP99.push(b.p99);
      oursP50.push(n.p50);
      oursP99.push(n.p99);
    }
    const note = "both in a process of their own, keep-alive fetch from the bench; the bare one is bench/bare-health.ts";
    record({
      section: "http",
      figure: "GET /api/health through quorum start p50",
      value: median(oursP50),
      unit: "ms",
      anchor: "bare node:http + postgres.js SELECT 1 p50",
      anchorValue: median(bareP50),
      better: "lower",
      note,
    });
    record({
      section: "http",
      figure: "GET /api/health through quorum start p99",
      value: median(oursP99),
      unit: "ms",
      anchor: "bare node:http + postgres.js SELECT 1 p99",
      anchorValue: median(bareP99),
      better: "lower",
      note,
    });
  } finally {
    bare.stop();
  }
  for (const e of endpoints) {
    const r = results.get(e.name)!;
    const note = "over HTTP to the running server (keep-alive fetch): auth, zod, domain/, JSON";
    record({
      section: "http",
      figure: `${e.name} p50`,
      value: median(r.p50),
      unit: "ms",
      anchor: "raw SELECT of 50 messages p50",
      anchorValue: median(anchorP50),
      better: "lower",
      note,
    });
    record({
      section: "http",
      figure: `${e.name} p99`,
      value: median(r.p99),
      unit: "ms",
      anchor: "raw SELECT of 50 messages p99",
      anchorValue: median(anchorP99),
      better: "lower",
      note,
    });
  }
}

// `npm run bench`: Quorum's figures beside their raw-database anchors, measured in the same run on the
// same database, medians of REPS repetitions. Writes bench/results/<date>.md and prints the table.
// Usage: npm run bench [-- --quick]   (DATABASE_URL's server, else an embedded Postgres in a temporary QUORUM_HOME)
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { connect, type Connection } from "../db/client";
import { startEmbeddedPostgres } from "../db/embedded";
import { runMigrations } from "../db/migrate";
import { tasks } from "../db/schema";
import type { Clock } from "../server/clock";
import { systemClock } from "../server/clock";
import { QuorumError } from "../server/errors";
import { appendEvent } from "../server/journal/append";
import { EVENTS_CHANNEL } from "../server/journal/listen";
import { bill } from "../server/journal/views/bill";
import type { JournalRecord } from "../server/journal/views/run-events";
import { createAgent, ensureHuman } from "../server/principals/create-principal";
import type { Principal } from "../server/principals/types";
import { advanceCursor } from "../server/relay/cursor";
import { postMessage } from "../server/rooms/post-message";
import { createRoom } from "../server/rooms/rooms";
import { claimNextTask } from "../server/tasks/claim-next";

const QUICK = process.argv.includes("--quick");
const REPS = 3;
/** Seconds each timed measurement runs (per repetition). */
const SECONDS = QUICK ? 1 : 6;
const CLAIM_TASKS = QUICK ? 200 : 2_000;
const FOLD_EVENTS = QUICK ? 100_000 : 1_000_000;
const SSE_SECONDS = QUICK ? 1 : 5;
const HTTP_REQUESTS = QUICK ? 64 : 800; // per endpoint per repetition, across 8 clients
const BODY_BYTES = 256;

// ---------------------------------------------------------------- progress and statistics

const startedAt = performance.now();
function progress(text: string) {
  const s = Math.round((performance.now() - startedAt) / 1000);
  process.stderr.write(`[${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}] ${text}\n`);
}
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Row {
  section: string;
  figure: string;
  value: number;
  unit: string;
  anchor: string;
  anchorValue: number;
  /** "higher" when more is better (throughput); "lower" for latencies. */
  better: "higher" | "lower";
  note?: string;
}
const rows: Row[] = [];
function record(row: Row) {
  rows.push(row);
  progress(`  → ${row.figure}: ${fmt(row.value)} ${row.unit} vs ${row.anchor}: ${fmt(row.anchorValue)} ${row.unit} (${ratioText(row)})`);
}
function fmt(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Math.abs(n) >= 100) return Math.round(n).toLocaleString("en-US");
  if (Math.abs(n) >= 10) return n.toFixed(1);
  return n.toFixed(2);
}
/** Quorum ÷ anchor for throughput, anchor ÷ Quorum for latency: 1.0 is free, smaller costs more. */
const efficiency = (r: Row) => (r.better === "higher" ? r.value / r.anchorValue : r.anchorValue / r.value);
const ratioText = (r: Row) => (r.better === "higher" ? `${(r.value / r.anchorValue).toFixed(3)}×` : `${(r.value / r.anchorValue).toFixed(2)}× the latency`);

/** Runs `workers` loops until `seconds` have passed; returns operations per second. */
async function timed(workers: number, seconds: number, op: (worker: number, i: number) => Promise<number>): Promise<number> {
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const counts = await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      let n = 0;
      for (let i = 0; performance.now() < deadline; i++) n += await op(w, i);
      return n;
    }),
  );
  return counts.reduce((a, b) => a + b, 0) / ((performance.now() - started) / 1000);
}

/** Runs `workers` loops side by side until each one's claim finds nothing (bench/claim.ts's race). */
async function race(workers: number, claim: (worker: number) => Promise<boolean>): Promise<{ claims: number; perSecond: number }> {
  const started = performance.now();
  const counts = await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      let n = 0;
      while (await claim(w)) n++;
      return n;
    }),
  );
  const claims = counts.reduce((a, b) => a + b, 0);
  return { claims, perSecond: claims / ((performance.now() - started) / 1000) };
}

/** A clock that moves `stepMs` on every reading: the rate floor sees ~8 s between an agent's posts. */
function steppingClock(stepMs: number): Clock {
  let t = Date.now();
  return { now: () => new Date((t += stepMs)) };
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

const body = (tag: string) => (tag + " " + "x".repeat(BODY_BYTES)).slice(0, BODY_BYTES);

// ---------------------------------------------------------------- gated posting vs raw INSERTs

async function benchPosting(c: Connection, human: Principal, agents: Principal[]) {
  const refusals = new Map<string, number>();
  const tryPost = async (fn: () => Promise<unknown>): Promise<number> => {
    try {
      await fn();
      return 1;
    } catch (error) {
      if (!(error instanceof QuorumError)) throw error;
      const code = String((error.toBody() as { error?: string }).error);
      refusals.set(code, (refusals.get(code) ?? 0) + 1);
      return 0;
    }
  };
  await c.sql`create table if not exists bench_messages (id bigserial primary key, room text not null, seq bigint not null, sender uuid not null, body text not null, created_at timestamptz not null default now())`;
  const one: number[] = [];
  const eight: number[] = [];
  const raw1: number[] = [];
  const raw8: number[] = [];
  let humanShareOne = 0;
  for (let rep = 1; rep <= REPS; rep++) {
    // 8 agents in one room: direct messages (which skip the freshness gate by design) to the next
    // agent; every 8th post is the human's, which resets the loop counters and keeps the two-tier cap.
    progress(`gated posting, 8 agents in one room, rep ${rep}/${REPS}`);
    const room = `bench-one-${rep}`;
    await createRoom(c.db, human, { name: room });
    const clockOne = steppingClock(1000);
    let n = 0;
    let humans = 0;
    let total = 0;
    one.push(
      await timed(8, SECONDS, async (w) => {
        const i = n++;
        total++;
        if (i % 8 === 0) {
          humans++;
          return tryPost(() => postMessage(c.db, human, room, { body: body(`human ${rep}.${i}`) }, clockOne));
        }
        return tryPost(() => postMessage(c.db, agents[w], room, { body: body(`dm ${rep}.${i} from ${w}`), to: agents[(w + 1) % 8].name }, clockOne));
      }),
    );
    humanShareOne = humans / total;
    // 8 agents in 8 rooms: each agent broadcasts in its own room; the human speaks there every 4th post and
    // the agent acks its cursor to that message before broadcasting again (the freshness gate's rule).
    progress(`gated posting, 8 agents in 8 rooms, rep ${rep}/${REPS}`);
    const roomsOf = agents.map((_, w) => `bench-r${rep}-${w}`);
    for (const r of roomsOf) await createRoom(c.db, human, { name: r });
    const clockEight = steppingClock(1000);
    eight.push(
      await timed(8, SECONDS, async (w, i) => {
        if (i % 4 === 0) {
          try {
            const m = await postMessage(c.db, human, roomsOf[w], { body: body(`human ${rep}.${w}.${i}`) }, clockEight);
            await advanceCursor(c.db, agents[w], roomsOf[w], { seq: m.seq }, clockEight);
            return 1;
          } catch (error) {
            if (error instanceof QuorumError) return tryPost(() => Promise.reject(error));
            throw error;
          }
        }
        return tryPost(() => postMessage(c.db, agents[w], roomsOf[w], { body: body(`post ${rep}.${w}.${i}`) }, clockEight));
      }),
    );
    // The anchors: the same body size, one autocommitted single-row INSERT at a time.
    progress(`raw single-row INSERTs, 1 and 8 connections, rep ${rep}/${REPS}`);
    const sender = agents[0].id;
    const insert = (w: number, i: number) =>
      c.sql`insert into bench_messages (room, seq, sender, body) values (${"raw" + w}, ${i}, ${sender}, ${body(`raw ${rep}.${w}.${i}`)})`.then(() => 1);
    raw1.push(await timed(1, SECONDS, insert));
    raw8.push(await timed(8, SECONDS, insert));
  }
  const refused = [...refusals].map(([k, v]) => `${k} ${v}`).join(", ") || "none";
  const note = `every post through postMessage (gates, seq, journal, delivery); refusals: ${refused}`;
  record({ section: "posting", figure: "gated posting, 8 agents · 1 room (DMs + human every 8th)", value: median(one), unit: "posts/s", anchor: "raw INSERT, 1 connection", anchorValue: median(raw1), better: "higher", note });
  record({ section: "posting", figure: "gated posting, 8 agents · 1 room (DMs + human every 8th)", value: median(one), unit: "posts/s", anchor: "raw INSERT, 8 connections", anchorValue: median(raw8), better: "higher", note: `${Math.round(humanShareOne * 100)}% of posts are the human's` });
  record({ section: "posting", figure: "gated posting, 8 agents · 8 rooms (broadcast after ack)", value: median(eight), unit: "posts/s", anchor: "raw INSERT, 1 connection", anchorValue: median(raw1), better: "higher", note });
  record({ section: "posting", figure: "gated posting, 8 agents · 8 rooms (broadcast after ack)", value: median(eight), unit: "posts/s", anchor: "raw INSERT, 8 connections", anchorValue: median(raw8), better: "higher", note: "25% of posts are the human's; each is followed by the agent's cursor ack (timed, not counted)" });
}

// ---------------------------------------------------------------- claim-next vs bare SKIP LOCKED

async function fillBoard(c: Connection, lead: Principal, tag: string) {
  for (let i = 0; i < CLAIM_TASKS; i += 500) {
    const batch = Array.from({ length: Math.min(500, CLAIM_TASKS - i) }, (_, j) => ({
      title: `bench ${tag}.${i + j}`,
      acceptanceCriteria: "claimed once",
      approverId: lead.id,
      createdBy: lead.id,
    }));
    await c.db.insert(tasks).values(batch);
  }
  await c.sql`drop table if exists bench_jobs`;
  await c.sql`create table bench_jobs (id bigserial primary key, status text not null default 'ready', owner int, claimed_at timestamptz)`;
  await c.sql`create index bench_jobs_ready_idx on bench_jobs (id) where status = 'ready'`;
  await c.sql`insert into bench_jobs (status) select 'ready' from generate_series(1, ${CLAIM_TASKS})`;
  await c.sql`analyze tasks`;
  await c.sql`analyze bench_jobs`;
}

async function benchClaims(c: Connection, lead: Principal, workers: Principal[]) {
  for (const W of [1, 4, 16]) {
    const board: number[] = [];
    const bare: number[] = [];
    for (let rep = 1; rep <= REPS; rep++) {
      progress(`claim-next vs bare SKIP LOCKED, ${W} worker(s), ${CLAIM_TASKS} tasks, rep ${rep}/${REPS}`);
      await fillBoard(c, lead, `${W}.${rep}`);
      const runBoard = () => race(W, async (w) => (await claimNextTask(c.db, workers[w], systemClock)) !== null);
      const runBare = () =>
        race(W, async (w) => {
          const got = await c.sql`
            update bench_jobs set status = 'taken', owner = ${w}, claimed_at = now()
            where id = (select id from bench_jobs where status = 'ready' order by id for update skip locked limit 1)
            returning id`;
          return got.length > 0;
        });
      // Alternate the order so neither side always runs on a warmer cache.
      let a, b;
      if (rep % 2) {
        a = await runBoard();
        b = await runBare();
      } else {
        b = await runBare();
        a = await runBoard();
      }
      if (a.claims !== CLAIM_TASKS || b.claims !== CLAIM_TASKS) throw new Error(`lost claims: claim-next ${a.claims}, bare ${b.claims} of ${CLAIM_TASKS}`);
      board.push(a.perSecond);
      bare.push(b.perSecond);
    }
    record({ section: "claims", figure: `claim-next, ${W} worker${W > 1 ? "s" : ""} (journal + NOTIFY)`, value: median(board), unit: "claims/s", anchor: "bare UPDATE … SKIP LOCKED loop", anchorValue: median(bare), better: "higher", note: `${CLAIM_TASKS} tasks per repetition, every task claimed exactly once` });
  }
}

// ---------------------------------------------------------------- the bill fold

function billEvents(n: number): JournalRecord[] {
  const agents = Array.from({ length: 16 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);
  const models = ["model-a", "model-b", "model-c"];
  const t0 = Date.parse("2026-01-01T00:00:00Z");
  const out: JournalRecord[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const agent = i % 16;
    out[i] = {
      id: i + 1,
      t: new Date(t0 + i * 250).toISOString(),
      kind: "BudgetDebited",
      actor: agents[agent],
      runId: `run-${i % 2000}`,
      taskId: `task-${i % 500}`,
      turn: i % 30,
      data: { amount: 100 + (i % 900), inputTokens: 80 + (i % 700), outputTokens: 20 + (i % 200), cachedTokens: i % 50, estimated: i % 97 === 0, model: models[i % 3], budgetIds: [`budget-${agent}`] },
    };
  }
  return out;
}

async function benchBillFold() {
  progress(`generating ${FOLD_EVENTS.toLocaleString("en-US")} BudgetDebited events in memory`);
  const events = billEvents(FOLD_EVENTS);
  const folded: number[] = [];
  const bare: number[] = [];
  for (let rep = 1; rep <= REPS; rep++) {
    progress(`bill fold over ${FOLD_EVENTS.toLocaleString("en-US")} events, rep ${rep}/${REPS}`);
    let started = performance.now();
    const b = bill(events);
    folded.push(FOLD_EVENTS / ((performance.now() - started) / 1000));
    if (!b) throw new Error("the bill fold returned nothing");
    // The anchor: the least any fold does — one pass summing amounts per agent into a Map.
    started = performance.now();
    const sums = new Map<string | null, number>();
    for (const e of events) {
      const d = e.data as { amount: number };
      sums.set(e.actor, (sums.get(e.actor) ?? 0) + d.amount);
    }
    bare.push(FOLD_EVENTS / ((performance.now() - started) / 1000));
    if (sums.size !== 16) throw new Error("the bare fold lost agents");
    await sleep(0);
  }
  record({ section: "bill", figure: `bill fold (server/journal/views/bill.ts), ${FOLD_EVENTS.toLocaleString("en-US")} events`, value: median(folded), unit: "events/s", anchor: "bare loop summing amount per agent", anchorValue: median(bare), better: "higher", note: "in memory: lines per agent/task/run/model, runs, budgets and per-minute buckets vs one Map" });
}

/** The bill engineer's bench/bill-fold.ts (snapshot fold from a real journal vs a raw SQL aggregate), when present. */
let billFoldReport = "";
async function runBillFoldScript(serverUrl: string) {
  const script = fileURLToPath(new URL("./bill-fold.ts", import.meta.url));
  if (!existsSync(script)) return;
  progress(`bench/bill-fold.ts over ${FOLD_EVENTS.toLocaleString("en-US")} journal events in the database (its own scratch database)`);
  const { spawn } = await import("node:child_process");
  billFoldReport = await new Promise<string>((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", script, String(FOLD_EVENTS)], { env: { ...process.env, DATABASE_URL: serverUrl }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      for (const line of d.toString().split("\n").filter(Boolean)) progress(`  bill-fold: ${line}`);
    });
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.on("close", (code) => resolve(code === 0 ? out : `${out}\n(bench/bill-fold.ts exited ${code})`));
  });
}

// ---------------------------------------------------------------- SSE freshness vs LISTEN/NOTIFY

async function benchFreshness(c: Connection, url: string, agent: Principal & { key: string }) {
  const { GET } = await import("../app/api/stream/route");
  for (const rate of [10, 100]) {
    const sseP50: number[] = [];
    const sseP99: number[] = [];
    const nP50: number[] = [];
    const nP99: number[] = [];
    for (let rep = 1; rep <= REPS; rep++) {
      progress(`live freshness at ${rate} events/s for ${SSE_SECONDS}s, rep ${rep}/${REPS}`);
      const issued = new Map<number, number>();
      const viaSse = new Map<number, number>();
      const viaListen = new Map<number, number>();
      const listener = postgres(url, { max: 1, onnotice: () => {} });
      const listening = await listener.listen(EVENTS_CHANNEL, (payload) => {
        viaListen.set((JSON.parse(payload) as { id: number }).id, performance.now());
      });
      const abort = new AbortController();
      const response = await GET(new Request("http://localhost/api/stream", { headers: { host: "localhost", authorization: `Bearer ${agent.key}` }, signal: abort.signal }));
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let ready!: () => void;
      const isReady = new Promise<void>((r) => (ready = r));
      const reading = (async () => {
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
          if (done) return;
          const at = performance.now();
          buffer += decoder.decode(value, { stream: true });
          let cut: number;
          while ((cut = buffer.indexOf("\n\n")) >= 0) {
            const frame = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            if (frame.includes("event: ready")) ready();
            const id = /^id: (\d+)$/m.exec(frame);
            if (id) viaSse.set(Number(id[1]), at);
          }
        }
      })();
      await isReady;
      const count = Math.round(rate * SSE_SECONDS);
      const began = performance.now();
      const writes: Promise<void>[] = [];
      for (let i = 0; i < count; i++) {
        const due = began + (i * 1000) / rate;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        // Latency runs from the moment the writing transaction is issued (commit included) to receipt:
        // the same starting point for the SSE client and the bare LISTEN connection.
        const t0 = performance.now();
        writes.push(
          c.db
            .transaction((tx) => appendEvent(tx, { kind: "CursorAdvanced", actor: agent.id, data: { room: "bench-fresh", seq: i, previous: i - 1 } }))
            .then((e) => void issued.set(e.id, t0)),
        );
      }
      await Promise.all(writes);
      for (let i = 0; i < 100 && (viaSse.size < issued.size || viaListen.size < issued.size); i++) await sleep(20);
      abort.abort();
      await reader.cancel().catch(() => {});
      await reading;
      await listening.unlisten();
      await listener.end({ timeout: 2 });
      const lat = (m: Map<number, number>) => [...issued].filter(([id]) => m.has(id)).map(([id, t0]) => m.get(id)! - t0);
      const s = lat(viaSse);
      const l = lat(viaListen);
      if (s.length < issued.size || l.length < issued.size) throw new Error(`events missed: SSE ${s.length}, LISTEN ${l.length} of ${issued.size}`);
      sseP50.push(percentile(s, 50));
      sseP99.push(percentile(s, 99));
      nP50.push(percentile(l, 50));
      nP99.push(percentile(l, 99));
    }
    const note = "route handler's stream read in-process (no HTTP hop); from issuing the write (commit included) to receipt";
    record({ section: "freshness", figure: `SSE /api/stream p50 at ${rate} events/s`, value: median(sseP50), unit: "ms", anchor: "LISTEN/NOTIFY p50", anchorValue: median(nP50), better: "lower", note });
    record({ section: "freshness", figure: `SSE /api/stream p99 at ${rate} events/s`, value: median(sseP99), unit: "ms", anchor: "LISTEN/NOTIFY p99", anchorValue: median(nP99), better: "lower", note });
  }
}

// ---------------------------------------------------------------- the HTTP API under 8 clients

async function benchHttp(c: Connection, human: Principal & { cookie: string }, agents: (Principal & { key: string })[]) {
  const { call } = await import("../test/helpers");
  const messagesRoute = await import("../app/api/rooms/[room]/messages/route");
  const cursorRoute = await import("../app/api/rooms/[room]/cursor/route");
  const tasksRoute = await import("../app/api/tasks/route");
  const journalRoute = await import("../app/api/journal/route");
  const meRoute = await import("../app/api/me/route");
  let posted = 0;
  const endpoints: { name: string; run: (client: number) => Promise<number> }[] = [
    { name: "GET /api/rooms/general/messages", run: (w) => call(messagesRoute.GET, "/api/rooms/general/messages?limit=50", { key: agents[w].key, params: { room: "general" } }).then((r) => r.status) },
    { name: "POST /api/rooms/general/messages (human)", run: () => call(messagesRoute.POST, "/api/rooms/general/messages", { cookie: human.cookie, body: { body: body(`http ${posted++}`) }, params: { room: "general" } }).then((r) => r.status) },
    { name: "POST /api/rooms/general/cursor", run: (w) => call(cursorRoute.POST, "/api/rooms/general/cursor", { key: agents[w].key, body: { seq: 1 }, params: { room: "general" } }).then((r) => r.status) },
    { name: "GET /api/tasks", run: (w) => call(tasksRoute.GET, "/api/tasks?status=ready", { key: agents[w].key }).then((r) => r.status) },
    { name: "GET /api/journal", run: (w) => call(journalRoute.GET, "/api/journal?limit=50", { key: agents[w].key }).then((r) => r.status) },
    { name: "GET /api/me", run: (w) => call(meRoute.GET, "/api/me", { key: agents[w].key }).then((r) => r.status) },
  ];
  // Seed the room so the reads have a page to return.
  for (let i = 0; i < 60; i++) await postMessage(c.db, human, "general", { body: body(`seed ${i}`) }, systemClock);
  const anchor = (w: number) => c.sql`select * from messages where room = 'general' order by seq desc limit 50`.then(() => 200 + w * 0);
  const measure = async (run: (client: number) => Promise<number>) => {
    const latencies: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async (_, w) => {
        while (next++ < HTTP_REQUESTS) {
          const t0 = performance.now();
          const status = await run(w);
          latencies.push(performance.now() - t0);
          if (status >= 300) throw new Error(`unexpected status ${status}`);
        }
      }),
    );
    return { p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
  };
  const anchorP50: number[] = [];
  const anchorP99: number[] = [];
  const results = new Map<string, { p50: number[]; p99: number[] }>(endpoints.map((e) => [e.name, { p50: [], p99: [] }]));
  for (let rep = 1; rep <= REPS; rep++) {
    progress(`HTTP API p50/p99 under 8 clients (route handlers in-process), rep ${rep}/${REPS}`);
    const a = await measure(anchor);
    anchorP50.push(a.p50);
    anchorP99.push(a.p99);
    for (const e of endpoints) {
      const r = await measure(e.run);
      results.get(e.name)!.p50.push(r.p50);
      results.get(e.name)!.p99.push(r.p99);
    }
  }
  for (const e of endpoints) {
    const r = results.get(e.name)!;
    const note = "route handler called in-process with a real Request (auth, zod, server/, JSON); no HTTP server";
    record({ section: "http", figure: `${e.name} p50`, value: median(r.p50), unit: "ms", anchor: "raw SELECT of 50 messages p50", anchorValue: median(anchorP50), better: "lower", note });
    record({ section: "http", figure: `${e.name} p99`, value: median(r.p99), unit: "ms", anchor: "raw SELECT of 50 messages p99", anchorValue: median(anchorP99), better: "lower", note });
  }
}

// ---------------------------------------------------------------- main

function table(): string {
  const lines = ["| figure | Quorum | anchor (same run) | anchor value | ratio | note |", "|---|---|---|---|---|---|"];
  for (const r of rows) lines.push(`| ${r.figure} | ${fmt(r.value)} ${r.unit} | ${r.anchor} | ${fmt(r.anchorValue)} ${r.unit} | ${ratioText(r)} | ${r.note ?? ""} |`);
  return lines.join("\n");
}

async function main() {
  let home: string | undefined;
  let stop: (() => Promise<void>) | undefined;
  let serverUrl = process.env.DATABASE_URL;
  let where = "DATABASE_URL";
  if (!serverUrl) {
    home = mkdtempSync(join(tmpdir(), "quorum-bench-"));
    chmodSync(home, 0o755);
    process.env.QUORUM_HOME = home;
    progress(`starting an embedded Postgres in ${home}`);
    const embedded = await startEmbeddedPostgres(home);
    serverUrl = embedded.url;
    stop = embedded.stop;
    where = "embedded Postgres (temporary QUORUM_HOME)";
  }
  const name = `quorum_bench_${process.pid}`;
  const admin = postgres(withDatabase(serverUrl, "postgres"), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = withDatabase(serverUrl, name);
  process.env.DATABASE_URL = url; // route handlers (getDb) use the bench database
  const c = connect(url, { max: 20 });
  const only = process.argv.find((a) => a.startsWith("--only="))?.slice(7).split(",");
  const wants = (s: string) => !only || only.includes(s);
  try {
    progress(`migrating ${name} on ${where}${QUICK ? " (--quick)" : ""}`);
    await runMigrations(url);
    const version = (await c.sql`show server_version`)[0].server_version as string;
    const human = await ensureHuman(c.db, "bench-human");
    const agents = await Promise.all(Array.from({ length: 16 }, (_, i) => createAgent(c.db, null, { name: `bench-agent-${i}`, role: "coder" })));
    if (wants("posting")) await benchPosting(c, human, agents.slice(0, 8));
    if (wants("claims")) await benchClaims(c, human, agents);
    if (wants("bill")) {
      await benchBillFold();
      await runBillFoldScript(serverUrl);
    }
    if (wants("freshness")) await benchFreshness(c, url, agents[15]);
    if (wants("http")) {
      const { makeHuman } = await import("../test/helpers");
      await benchHttp(c, await makeHuman("bench-http-human"), agents.slice(0, 8));
    }
    const furthest = [...rows].sort((a, b) => efficiency(a) - efficiency(b))[0];
    const date = new Date().toISOString().slice(0, 10);
    const header = [
      `# Quorum bench — ${new Date().toISOString()}${QUICK ? " (--quick)" : ""}`,
      "",
      `Database: ${where}, PostgreSQL ${version}. Node ${process.version}. Medians of ${REPS} repetitions; every anchor measured in the same run on the same database.`,
      `Ratio: Quorum ÷ anchor for throughput (1.0 = the gate is free), Quorum's latency as a multiple of the anchor's for latencies.`,
      "",
    ].join("\n");
    const workload = [
      "",
      "Workloads: posting runs on a clock that moves 1 s per reading so the rate floor (30/min/agent) is not the bottleneck;",
      "in one room the 8 agents send direct messages (which skip the freshness gate by design) and a human speaks every 8th post",
      "(which resets the loop counters, and keeps the two-tier cap of 6 in force); in 8 rooms each agent broadcasts in its own room,",
      "the human speaks there every 4th post and the agent acks its cursor before broadcasting again. A refused post counts as nothing.",
      furthest ? `\nFurthest from its anchor: **${furthest.figure}** vs ${furthest.anchor} (${ratioText(furthest)}).` : "",
    ].join("\n");
    const billSection = billFoldReport ? `\n## The bill fold from the journal (bench/bill-fold.ts, same database server)\n\n\`\`\`\n${billFoldReport.trim()}\n\`\`\`\n` : "";
    const text = `${header}${table()}\n${workload}\n${billSection}`;
    const dir = fileURLToPath(new URL("./results/", import.meta.url));
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${date}${QUICK ? "-quick" : ""}.md`);
    writeFileSync(file, text);
    console.log(`\n${text}`);
    progress(`wrote ${file}`);
  } finally {
    await c.close();
    const { getConnection } = await import("../db/client");
    await getConnection().close().catch(() => {});
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
    await stop?.();
    if (home) rmSync(home, { recursive: true, force: true });
  }
}

await main();
process.exit(0);

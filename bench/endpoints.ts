// `npm run bench -- --only=endpoints` (issue 32, part 1): every main API read and write through a real `quorum start`
// beside its anchor, bench/anchor-server.ts — a bare node:http server in a process of its own that runs the
// statements Quorum ran for that request (recorded here, in process, through the route handler itself; the
// caller's authentication left out), all in one pipelined round trip, and answers their rows as JSON.
// One request at a time over keep-alive, Quorum and its anchor alternating request by request, so the
// machine's other load falls on both alike. p50 and p99 per repetition; medians of REPS and the ratios' spread.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect, type Connection } from "../db/client";
import type { QuorumServer } from "../e2e/server";
import { systemClock } from "../domain/clock";
import type { Principal } from "../domain/principal";
import { postMessage } from "../domain/rooms/post-message";
import { createTask } from "../domain/tasks/create";
import type { Plan, Statement } from "./anchor-server";
import { body, fmt, median, percentile, progress, QUICK, record, REPS } from "./lib";
import { apiRoute } from "../test/api";

const REQUESTS = QUICK ? 200 : 500; // per endpoint per repetition, on each side

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response> | Response;
interface Endpoint {
  name: string;
  method: "GET" | "POST";
  path: string;
  /** The route file's module, for recording what a request runs. */
  route: () => Promise<object>;
  params?: Record<string, string>;
  as: "agent" | "human";
  body?: () => string;
}

// Statements sent while a request is being recorded; null when nothing records.
let recording: Statement[] | null = null;

/**
 * The process's connection (what route handlers reach through serverContext), made here with a debug hook so a
 * request's statements can be recorded. Set before anything else opens it.
 */
export function recordingConnection(url: string): Connection {
  const debug = (_connection: number, query: string, parameters: unknown[]) => void recording?.push({ query, params: parameters });
  const connection = connect(url, { debug });
  (globalThis as unknown as { __quorumConnection?: Connection & { url: string } }).__quorumConnection = { ...connection, url };
  return connection;
}

/** Who the caller is, left out of the anchor: the limit is serving the rows, not finding whose key it is. */
const isAuthentication = (query: string) => /\b(api_keys|sessions)\b/.test(query) || /update "principals" set "last_seen_at"/i.test(query);

/** Calls the route handler in this process, as the lean router would, and answers how long it took. */
async function callInProcess(e: Endpoint, headers: Record<string, string>): Promise<number> {
  const module = (await e.route()) as Record<string, Handler>;
  const t0 = performance.now();
  const request = new Request(`http://localhost${e.path}`, { method: e.method, headers: { host: "localhost", ...headers }, body: e.body?.() });
  const response = await module[e.method](request, { params: Promise.resolve(e.params ?? {}) });
  await response.text();
  if (response.status >= 300) throw new Error(`${e.name} answered ${response.status} in process`);
  return performance.now() - t0;
}

async function recordPlan(e: Endpoint, headers: Record<string, string>): Promise<Plan & { all: number }> {
  recording = [];
  let statements: Statement[];
  try {
    await callInProcess(e, headers);
  } finally {
    statements = recording ?? [];
    recording = null;
  }
  // A write is replayed as one transaction: the anchor adds its own BEGIN and COMMIT around the statements. Left out
  // too: postgres.js's one-off read of the array types on a new connection, and a read's transaction settings.
  const replayed = (query: string) => !isAuthentication(query) && !/^\s*(begin|commit|rollback|set transaction)\b/i.test(query) && !/pg_catalog\.pg_type/.test(query);
  return { write: e.method === "POST", statements: statements.filter((s) => replayed(s.query)), all: statements.filter((s) => !/pg_catalog\.pg_type/.test(s.query)).length };
}

function startAnchor(databaseUrl: string, plans: Record<string, Plan>): Promise<{ url: string; stop: () => void; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), "quorum-anchor-"));
  const file = join(dir, "plans.json");
  writeFileSync(file, JSON.stringify(plans));
  const root = join(import.meta.dirname, "..");
  const child = spawn(join(root, "node_modules", ".bin", "tsx"), ["bench/anchor-server.ts", file], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.once("data", (chunk) => resolve({ url: `http://127.0.0.1:${Number(String(chunk).trim())}`, dir, stop: () => void child.kill("SIGTERM") }));
    child.once("exit", (code) => reject(new Error(`bench/anchor-server.ts exited with ${code}`)));
  });
}

async function timedFetch(url: string, init: RequestInit): Promise<number> {
  const t0 = performance.now();
  const response = await fetch(url, init);
  await response.arrayBuffer();
  const ms = performance.now() - t0;
  if (response.status >= 300) throw new Error(`${init.method ?? "GET"} ${url} answered ${response.status}`);
  return ms;
}

export interface EndpointFigures {
  name: string;
  statements: string[];
  /** Statements Quorum sent for one request, authentication and transaction control included. */
  quorumStatements: number;
  /** p50 of the route handler called in the bench's process: no HTTP, no router. */
  inProcess: number;
  quorum: { p50: number[]; p99: number[] };
  anchor: { p50: number[]; p99: number[] };
}

export async function benchEndpoints(
  server: QuorumServer,
  c: Connection,
  url: string,
  human: Principal & { cookie: string },
  agent: Principal & { key: string },
): Promise<EndpointFigures[]> {
  progress("endpoints: seeding the room, the board and the journal");
  for (let i = 0; i < 60; i++) await postMessage(c.db, human, "general", { body: body(`seed ${i}`) }, systemClock);
  let task = "";
  for (let i = 0; i < 30; i++) {
    const t = await createTask(c.db, human, { title: `bench task ${i}`, description: "a task for the endpoints bench", acceptanceCriteria: "it is done" }, systemClock);
    task ||= t.id;
  }
  let posted = 0;
  const endpoints: Endpoint[] = [
    {
      name: "room tail (agent)",
      method: "GET",
      path: "/api/rooms/general/messages?limit=50",
      params: { room: "general" },
      as: "agent",
      route: async () => apiRoute("/api/rooms/[room]/messages"),
    },
    { name: "journal page (human)", method: "GET", path: "/api/journal?limit=50", as: "human", route: async () => apiRoute("/api/journal") },
    { name: "journal page (agent)", method: "GET", path: "/api/journal?limit=50", as: "agent", route: async () => apiRoute("/api/journal") },
    { name: "GET /api/tasks", method: "GET", path: "/api/tasks", as: "agent", route: async () => apiRoute("/api/tasks") },
    { name: "task detail", method: "GET", path: `/api/tasks/${task}`, params: { id: task }, as: "agent", route: async () => apiRoute("/api/tasks/[id]") },
    { name: "GET /api/me", method: "GET", path: "/api/me", as: "agent", route: async () => apiRoute("/api/me") },
    { name: "waiting for you (human)", method: "GET", path: "/api/me/waiting", as: "human", route: async () => apiRoute("/api/me/waiting") },
    { name: "agents (roster)", method: "GET", path: "/api/agents", as: "agent", route: async () => apiRoute("/api/agents") },
    { name: "bill", method: "GET", path: "/api/bill", as: "human", route: async () => apiRoute("/api/bill") },
    {
      name: "post (human)",
      method: "POST",
      path: "/api/rooms/general/messages",
      params: { room: "general" },
      as: "human",
      body: () => JSON.stringify({ body: body(`endpoints ${posted++}`) }),
      route: async () => apiRoute("/api/rooms/[room]/messages"),
    },
  ];
  const headersOf = (e: Endpoint): Record<string, string> => ({
    ...(e.as === "agent" ? { authorization: `Bearer ${agent.key}` } : { cookie: human.cookie }),
    ...(e.method === "POST" ? { "content-type": "application/json" } : {}),
  });
  const plans: Record<string, Plan> = {};
  const counts: number[] = [];
  for (const [i, e] of endpoints.entries()) {
    const { all, ...plan } = await recordPlan(e, headersOf(e));
    plans[`/anchor/${i}`] = plan;
    counts.push(all);
  }
  const anchor = await startAnchor(url, plans);
  const figures: EndpointFigures[] = endpoints.map((e, i) => ({
    name: `${e.method} ${e.path.replace(task, ":id")} — ${e.name}`,
    statements: plans[`/anchor/${i}`].statements.map((s) => s.query.replace(/\s+/g, " ").slice(0, 160)),
    quorumStatements: counts[i],
    inProcess: Number.NaN,
    quorum: { p50: [], p99: [] },
    anchor: { p50: [], p99: [] },
  }));
  try {
    const base = server.baseURL;
    const measure = async (count: number, rep?: number) => {
      for (const [i, e] of endpoints.entries()) {
        const headers = headersOf(e);
        const ours: number[] = [];
        const bare: number[] = [];
        for (let n = 0; n < count; n++) {
          // Alternate which goes first, so neither always follows the other's work.
          const quorum = () => timedFetch(`${base}${e.path}`, { method: e.method, headers, body: e.body?.() }).then((ms) => void ours.push(ms));
          const limit = () => timedFetch(`${anchor.url}/anchor/${i}`, { method: e.method, body: e.body?.() }).then((ms) => void bare.push(ms));
          if (n % 2) {
            await quorum();
            await limit();
          } else {
            await limit();
            await quorum();
          }
        }
        if (rep === undefined) continue;
        const f = figures[i];
        f.quorum.p50.push(percentile(ours, 50));
        f.quorum.p99.push(percentile(ours, 99));
        f.anchor.p50.push(percentile(bare, 50));
        f.anchor.p99.push(percentile(bare, 99));
        progress(`  ${f.name}: ${fmt(percentile(ours, 50))} / ${fmt(percentile(ours, 99))} ms vs ${fmt(percentile(bare, 50))} / ${fmt(percentile(bare, 99))} ms`);
      }
    };
    progress("endpoints: warming every route and both servers' connections");
    await measure(QUICK ? 30 : 100);
    for (let rep = 1; rep <= REPS; rep++) {
      progress(`endpoints: ${REQUESTS} requests each, one at a time, Quorum and its anchor alternating, rep ${rep}/${REPS}`);
      await measure(REQUESTS, rep);
    }
    // Where the time goes: the same handlers called in this process (auth, zod, domain/, the database, JSON),
    // without HTTP and the router.
    for (const [i, e] of endpoints.entries()) {
      const taken: number[] = [];
      for (let n = 0; n < (QUICK ? 100 : 300); n++) taken.push(await callInProcess(e, headersOf(e)));
      figures[i].inProcess = percentile(taken, 50);
    }
  } finally {
    anchor.stop();
    rmSync(anchor.dir, { recursive: true, force: true });
  }
  for (const f of figures) {
    const note = "one request at a time, keep-alive; the anchor runs the same statements (auth left out) pipelined on a bare node:http server";
    record({
      section: "endpoints",
      figure: `${f.name} p50`,
      value: median(f.quorum.p50),
      unit: "ms",
      anchor: "bare anchor p50",
      anchorValue: median(f.anchor.p50),
      better: "lower",
      note,
    });
    record({
      section: "endpoints",
      figure: `${f.name} p99`,
      value: median(f.quorum.p99),
      unit: "ms",
      anchor: "bare anchor p99",
      anchorValue: median(f.anchor.p99),
      better: "lower",
      note,
    });
  }
  return figures;
}

/** The section's own table: medians, each repetition's ratio (the spread), and the goal. */
export function endpointsTable(figures: EndpointFigures[]): string {
  const ratios = (q: number[], a: number[]) => q.map((v, i) => v / a[i]);
  const lines = [
    "| endpoint | Quorum p50 | anchor p50 | p50 ratio (reps) | Quorum p99 | anchor p99 | p99 ratio (reps) | goal (≤2× / ≤3×; post ≤3×) | statements (Quorum / anchor) | handler in process p50 |",
    "|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const f of figures) {
    const r50 = median(f.quorum.p50) / median(f.anchor.p50);
    const r99 = median(f.quorum.p99) / median(f.anchor.p99);
    const post = f.name.startsWith("POST");
    const met = post ? r50 <= 3 && r99 <= 3 : r50 <= 2 && r99 <= 3;
    const spread = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(", ");
    lines.push(
      `| ${f.name} | ${fmt(median(f.quorum.p50))} | ${fmt(median(f.anchor.p50))} | **${r50.toFixed(2)}×** (${spread(ratios(f.quorum.p50, f.anchor.p50))}) | ${fmt(median(f.quorum.p99))} | ${fmt(median(f.anchor.p99))} | **${r99.toFixed(2)}×** (${spread(ratios(f.quorum.p99, f.anchor.p99))}) | ${met ? "met" : "not met"} | ${f.quorumStatements} / ${f.statements.length} | ${fmt(f.inProcess)} |`,
    );
  }
  lines.push("", "What each anchor runs (the statements Quorum ran for the request, authentication left out):", "");
  for (const f of figures) lines.push(`- ${f.name}: ${f.statements.length} statement(s)${f.statements.map((s) => `\n  - \`${s.replace(/`/g, "'")}\``).join("")}`);
  return lines.join("\n");
}

// The scale bench's measurements: every read path people and agents call, and the two hot writes, over HTTP
// to a running `quorum start`, one client, sequential keep-alive requests.
import type { Connection } from "../db/client";
import { percentile, progress, sleep } from "./lib";

export interface Target {
  cookie: string;
  agents: { id: string; key: string }[];
  taskId: string;
  runId: string;
}

export interface Measured {
  name: string;
  p50: number;
  p99: number;
  n: number;
  error?: string;
}

/** Requests per figure: at most this many, and no more than BUDGET_MS of them (a slow path still gets ≥ 5). */
const MAX_REQUESTS = 60;
const BUDGET_MS = 12_000;
const WARMUP = 4;

export async function measureReads(base: string, c: Connection, t: Target): Promise<Measured[]> {
  const human = { cookie: t.cookie, origin: base };
  const agent = { authorization: `Bearer ${t.agents[0].key}` };
  const get = (path: string, headers: Record<string, string>) => async () => {
    const r = await fetch(`${base}${path}`, { headers });
    await r.arrayBuffer();
    if (r.status >= 300) throw new Error(`${r.status} from GET ${path}`);
  };
  let posted = 0;
  let claimer = 0;
  const reads: [string, () => Promise<void>][] = [
    ["room tail GET /api/rooms/general/messages?limit=50 (human)", get("/api/rooms/general/messages?limit=50", human)],
    ["room tail (agent)", get("/api/rooms/general/messages?limit=50", agent)],
    ["journal page GET /api/journal?limit=50 (human)", get("/api/journal?limit=50", human)],
    ["journal page (agent)", get("/api/journal?limit=50", agent)],
    ["journal kind=MessageSent (human)", get("/api/journal?limit=50&kind=MessageSent", human)],
    ["journal kind=MessageSent (agent)", get("/api/journal?limit=50&kind=MessageSent", agent)],
    ["journal search q=parser (human)", get("/api/journal?limit=50&q=parser", human)],
    ["journal search q=parser (agent)", get("/api/journal?limit=50&q=parser", agent)],
    ["task thread GET /api/journal/tasks/{id}/thread", get(`/api/journal/tasks/${t.taskId}/thread`, human)],
    ["task audit GET /api/journal/tasks/{id}/audit", get(`/api/journal/tasks/${t.taskId}/audit`, human)],
    ["run timeline GET /api/journal/runs/{id} (agent)", get(`/api/journal/runs/${t.runId}`, agent)],
    ["bill GET /api/bill", get("/api/bill", human)],
    ["waiting-for-you GET /api/me/waiting", get("/api/me/waiting", human)],
    ["board GET /api/tasks", get("/api/tasks", human)],
    ["roster GET /api/agents", get("/api/agents", human)],
    ["agent detail GET /api/agents/{id} (agent)", get(`/api/agents/${t.agents[1].id}`, agent)],
    [
      "post POST /api/rooms/general/messages (human)",
      async () => {
        const r = await fetch(`${base}/api/rooms/general/messages`, {
          method: "POST",
          headers: { ...human, "content-type": "application/json" },
          body: JSON.stringify({ body: `scale post ${posted++}` }),
        });
        await r.arrayBuffer();
        if (r.status !== 201) throw new Error(`${r.status} from POST messages`);
      },
    ],
    [
      "claim-next POST /api/tasks/claim-next (agent)",
      async () => {
        const a = t.agents[claimer++ % t.agents.length];
        const r = await fetch(`${base}/api/tasks/claim-next`, { method: "POST", headers: { authorization: `Bearer ${a.key}`, "content-type": "application/json" }, body: "{}" });
        await r.arrayBuffer();
        if (r.status !== 200) throw new Error(`${r.status} from claim-next`);
      },
    ],
  ];
  const out: Measured[] = [];
  for (const [name, run] of reads) out.push(await timeOne(name, run));
  // SSE catch-up from an event 1M back (or the journal's start): from the request to the first replayed event.
  const [{ max }] = await c.sql<{ max: string }[]>`select max(id)::text as max from events`;
  const from = Math.max(0, Number(max) - 1_000_000);
  for (const [who, headers] of [
    ["human", human],
    ["agent", agent],
  ] as const) {
    // One name at every size (the table lines sizes up by name): 1M events back, or the journal's start when smaller.
    out.push(await timeOne(`SSE catch-up: first event, Last-Event-ID 1M back or the start (${who})`, () => firstReplayed(base, headers, from), 10));
  }
  return out;
}

async function timeOne(name: string, run: () => Promise<void>, max = MAX_REQUESTS): Promise<Measured> {
  try {
    for (let i = 0; i < WARMUP; i++) await run();
    const taken: number[] = [];
    const began = performance.now();
    while (taken.length < max && (taken.length < 5 || performance.now() - began < BUDGET_MS)) {
      const t0 = performance.now();
      await run();
      taken.push(performance.now() - t0);
    }
    const m = { name, p50: percentile(taken, 50), p99: percentile(taken, 99), n: taken.length };
    progress(`    ${name}: p50 ${m.p50.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms (${m.n} requests)`);
    return m;
  } catch (error) {
    progress(`    ${name}: ${(error as Error).message}`);
    return { name, p50: Number.NaN, p99: Number.NaN, n: 0, error: (error as Error).message };
  }
}

async function firstReplayed(base: string, headers: Record<string, string>, from: number): Promise<void> {
  const abort = new AbortController();
  const r = await fetch(`${base}/api/stream`, { headers: { ...headers, "last-event-id": String(from) }, signal: abort.signal });
  if (!r.ok) throw new Error(`${r.status} from /api/stream`);
  const reader = r.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error("the stream ended before replaying an event");
      buffer += decoder.decode(value, { stream: true });
      if (/^id: \d+$/m.test(buffer)) return;
    }
  } finally {
    abort.abort();
    await reader.cancel().catch(() => {});
    await sleep(20); // the server releases the stream's slot once it sees the socket close
  }
}

// The app server SIGKILLed under load: 8 agents and a human post over HTTP into fresh rooms while the
// whole server (Next and its Postgres, one process group) is SIGKILLed, then restarted on the same data.
// Every acknowledged message must be there unchanged and every acknowledged refusal journalled; per
// room, seq runs 1..n with no gaps and the room's last seq is n; every message has its MessageSent event
// and every MessageSent event its message; acked cursors stayed put. CHAOS_SERVER_KILLS sets the number
// of kill/restart cycles (1 in `npm test`, more in `npm run chaos`); a one-line JSON report is printed.
import { rmSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { type QuorumClient, quorumClient } from "../client";
import { killQuorum, newHome, quorumCli, startQuorum, stopQuorum, type QuorumServer } from "./server";

const CYCLES = Math.max(1, Number(process.env.CHAOS_SERVER_KILLS ?? 1));
const AGENTS = 8;
const ROOMS_PER_CYCLE = 2;
/** The load runs at least this long and until this many posts are acknowledged, then the kill comes. */
const MIN_LOAD_MS = 1_500;
const MIN_ACKS = 150;
const MAX_LOAD_MS = 30_000;
// No demo team: nothing but this test writes, so the check after a restart reads a quiet database.
const QUIET = { QUORUM_TEAM: "0" };

/** A parsed JSON response: the check reads items, cursors and errors out of many different endpoints. */
// biome-ignore lint/suspicious/noExplicitAny: parsed JSON from many endpoints, read field by field and asserted with expect
type Body = any;

/** One identity's typed client (quorum/client): an agent's bearer key or a human's session cookie. */
type Client = QuorumClient;

/** The status and the parsed body (the view, or the refusal) of one typed call. */
async function answer(pending: Promise<{ response: Response; data?: unknown; error?: unknown }>): Promise<{ status: number; body: Body }> {
  const { response, data, error } = await pending;
  return { status: response.status, body: data ?? error };
}

interface Attempt {
  room: string;
  sender: string;
  body: string;
}
interface Ledger {
  acked: (Attempt & { id: string; seq: number })[];
  refused: (Attempt & { error: string })[];
  /** Posts whose answer died with the server: either outcome is allowed, half of one is not. */
  unknown: Attempt[];
  cursors: { agent: number; room: string; seq: number }[];
  unexpected: string[];
}

/** Reads every page of a cursor-paginated list. */
async function readAll(what: string, page: (after: number) => Promise<{ status: number; body: Body }>): Promise<Body[]> {
  const items: Body[] = [];
  for (let after = 0; ; ) {
    const res = await page(after);
    expect(res.status, `${what} after ${after}`).toBe(200);
    items.push(...res.body.items);
    if (res.body.next === undefined) return items;
    after = res.body.next;
  }
}

/** 8 agents and one human per room post until the kill; returns how many posts were in flight when it came. */
async function loadThenKill(server: QuorumServer, cycle: number, rooms: string[], human: Client, agents: { name: string; call: Client }[], ledger: Ledger) {
  let stopping = false;
  let inFlight = 0;
  let ackedNow = 0;
  const post = async (call: Client, sender: string, room: string, data: { body: string; to?: string }) => {
    const attempt = { room, sender, body: data.body };
    inFlight++;
    try {
      const res = await answer(call.POST("/api/rooms/{room}/messages", { params: { path: { room } }, body: data }));
      if (res.status === 201) {
        ledger.acked.push({ ...attempt, id: res.body.id, seq: res.body.seq });
        ackedNow++;
      } else if (res.status === 409 || res.status === 429) ledger.refused.push({ ...attempt, error: res.body.error });
      else if (stopping && res.status >= 500)
        ledger.unknown.push(attempt); // the database died first
      else ledger.unexpected.push(`${res.status} ${JSON.stringify(res.body)}`);
    } catch {
      ledger.unknown.push(attempt);
    } finally {
      inFlight--;
    }
  };
  const agentLoop = async (w: number) => {
    const { name, call } = agents[w];
    for (let i = 0; !stopping; i++) {
      const room = rooms[(w + i) % rooms.length];
      const body = `c${cycle} ${name} #${i}`;
      if (i % 3 !== 2) {
        // Direct messages skip the freshness gate: the bulk of the load.
        await post(call, name, room, { body, to: agents[(w + 1) % AGENTS].name });
        continue;
      }
      // A broadcast: ack what the room holds, then speak (others may still get in first: 409 stale).
      try {
        const { body: cursor } = await answer(call.GET("/api/rooms/{room}/cursor", { params: { path: { room } } }));
        const ack = await answer(call.POST("/api/rooms/{room}/cursor", { params: { path: { room } }, body: { seq: cursor.lastSeq } }));
        if (ack.status === 200 && ack.body.moved) ledger.cursors.push({ agent: w, room, seq: ack.body.seq });
      } catch {
        continue; // the server is gone
      }
      if (!stopping) await post(call, name, room, { body });
    }
  };
  // A human in each room resets the loop counters (lapping, the two-tier cap) as it speaks.
  const humanLoop = async (room: string) => {
    for (let i = 0; !stopping; i++) await post(human, "scribe", room, { body: `c${cycle} scribe in ${room} #${i}` });
  };
  const loops = [...agents.map((_, w) => agentLoop(w)), ...rooms.map(humanLoop)];
  const started = Date.now();
  const waitFor = async (ready: () => boolean, ms: number) => {
    const end = Date.now() + ms;
    while (!ready() && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
  };
  await waitFor(() => Date.now() - started >= MIN_LOAD_MS && ackedNow >= MIN_ACKS, MAX_LOAD_MS);
  await waitFor(() => inFlight >= 4, 1_000);
  stopping = true;
  const inFlightAtKill = inFlight;
  await killQuorum(server);
  await Promise.all(loops);
  expect(ackedNow, `cycle ${cycle}: posts acknowledged before the kill`).toBeGreaterThan(0);
  return { inFlightAtKill, acked: ackedNow, loadMs: Date.now() - started };
}

interface Findings {
  lost: string[];
  gaps: string[];
  torn: string[];
  inFlightCommitted: number;
}

/** Reads everything back after a restart and compares it with what was acknowledged. */
async function check(human: Client, agents: { call: Client }[], ledger: Ledger): Promise<Findings> {
  const found: Findings = { lost: [], gaps: [], torn: [], inFlightCommitted: 0 };
  const listed = await answer(human.GET("/api/rooms"));
  expect(listed.status, "the human's session outlived the crash").toBe(200);
  const rooms: { name: string; lastSeq: number }[] = listed.body.items;
  const messages = new Map<string, Body>();
  for (const room of rooms) {
    const items = await readAll(`#${room.name}`, (after) =>
      answer(human.GET("/api/rooms/{room}/messages", { params: { path: { room: room.name }, query: { after, limit: 500 } } })),
    );
    const seqs = items.map((m) => m.seq as number);
    const expected = Array.from({ length: seqs.length }, (_, i) => i + 1);
    if (seqs.join() !== expected.join()) found.gaps.push(`#${room.name}: seqs ${seqs.join(",")}`);
    if (room.lastSeq !== (seqs.at(-1) ?? 0)) found.torn.push(`#${room.name}: last seq ${room.lastSeq}, highest message ${seqs.at(-1) ?? 0}`);
    for (const m of items) messages.set(m.id, m);
  }
  const sent = await readAll("MessageSent", (after) => answer(human.GET("/api/journal", { params: { query: { kind: "MessageSent", after, limit: 500 } } })));
  const eventOf = new Map<string, Body>(sent.map((e) => [e.data.messageId, e.data]));
  for (const [id, m] of messages) {
    const e = eventOf.get(id);
    if (!e) found.torn.push(`message ${m.room}#${m.seq} has no MessageSent event`);
    else if (e.room !== m.room || e.seq !== m.seq || e.body !== m.body) found.torn.push(`message ${m.room}#${m.seq} differs from its event`);
  }
  for (const [id, e] of eventOf) if (!messages.has(id)) found.torn.push(`MessageSent ${e.room}#${e.seq} has no message`);

  for (const a of ledger.acked) {
    const m = messages.get(a.id);
    if (!m || m.room !== a.room || m.seq !== a.seq || m.body !== a.body || m.senderName !== a.sender)
      found.lost.push(`acked ${a.room}#${a.seq} "${a.body}": ${m ? "changed" : "missing"}`);
  }
  const rejected = await readAll("GateRejected", (after) => answer(human.GET("/api/journal", { params: { query: { kind: "GateRejected", after, limit: 500 } } })));
  const rejections = new Set(rejected.map((e) => `${e.data.senderName} ${e.data.room} ${e.data.bodyPreview}`));
  for (const r of ledger.refused) if (!rejections.has(`${r.sender} ${r.room} ${r.body}`)) found.lost.push(`refusal (${r.error}) of "${r.body}" not journalled`);
  const bodies = new Set([...messages.values()].map((m) => `${m.senderName} ${m.room} ${m.body}`));
  found.inFlightCommitted = ledger.unknown.filter((u) => bodies.has(`${u.sender} ${u.room} ${u.body}`)).length;

  const acked = new Map<string, number>();
  for (const c of ledger.cursors) acked.set(`${c.agent} ${c.room}`, Math.max(acked.get(`${c.agent} ${c.room}`) ?? 0, c.seq));
  for (const [key, seq] of acked) {
    const [agent, room] = key.split(" ");
    const cursor = await answer(agents[Number(agent)].call.GET("/api/rooms/{room}/cursor", { params: { path: { room } } }));
    if (cursor.body.seq < seq) found.lost.push(`agent ${agent}'s cursor in #${room} went back from ${seq} to ${cursor.body.seq}`);
  }
  // Posting picks up where the room left off: the next seq is last seq + 1.
  for (const room of rooms) {
    const res = await answer(
      human.POST("/api/rooms/{room}/messages", { params: { path: { room: room.name } }, body: { body: `after restart, #${room.name} at ${room.lastSeq}` } }),
    );
    if (res.status !== 201 || res.body.seq !== room.lastSeq + 1) found.torn.push(`#${room.name}: a post after the restart got ${res.status} seq ${res.body?.seq}`);
    else ledger.acked.push({ room: room.name, sender: "scribe", body: res.body.body, id: res.body.id, seq: res.body.seq });
  }
  return found;
}

async function signInHuman(server: QuorumServer): Promise<Client> {
  const link = (await quorumCli(server.env, ["human", "add", "scribe"])).trim();
  const res = await fetch(link, { redirect: "manual" });
  const cookie = res.headers.get("set-cookie")?.split(";")[0];
  if (!cookie) throw new Error(`the sign-in link set no cookie (${res.status})`);
  return quorumClient({ baseUrl: server.baseURL, cookie });
}

test(`every acknowledged post survives ${CYCLES} SIGKILL(s) of the app server under load from ${AGENTS} agents`, async () => {
  test.setTimeout(90_000 + CYCLES * 60_000);
  const home = newHome();
  let server = await startQuorum(home, undefined, QUIET);
  const ledger: Ledger = { acked: [], refused: [], unknown: [], cursors: [], unexpected: [] };
  const totals = { cycles: 0, acked: 0, refused: 0, inFlightAtKill: 0, inFlightCommitted: 0, lost: 0, gaps: 0, torn: 0, loadSeconds: 0, restartSecondsMax: 0 };
  const problems = new Set<string>(); // each check reads the whole database again: a problem repeats
  try {
    const human = await signInHuman(server);
    const agents: { name: string; call: Client }[] = [];
    for (let w = 0; w < AGENTS; w++) {
      const res = await answer(human.POST("/api/agents", { body: { name: `poster-${w}`, role: "coder" } }));
      expect(res.status).toBe(201);
      agents.push({ name: res.body.name, call: quorumClient({ baseUrl: server.baseURL, key: res.body.key }) });
    }
    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      // Fresh rooms each cycle: each room's loop counters start over. (The rate floor, 30 a minute per agent
      // across rooms, still refuses some posts with 429: those count as refused, never as lost.)
      const rooms = Array.from({ length: ROOMS_PER_CYCLE }, (_, r) => `load-c${cycle}-r${r}`);
      for (const name of rooms) expect((await answer(human.POST("/api/rooms", { body: { name } }))).status).toBe(201);
      const refusedBefore = ledger.refused.length;
      const killed = await loadThenKill(server, cycle, rooms, human, agents, ledger);
      const restarting = Date.now();
      server = await startQuorum(home, server.port, QUIET);
      totals.restartSecondsMax = Math.max(totals.restartSecondsMax, Math.round((Date.now() - restarting) / 100) / 10);
      totals.loadSeconds = Math.round(totals.loadSeconds * 10 + killed.loadMs / 100) / 10;
      const found = await check(human, agents, ledger);
      totals.cycles++;
      totals.acked += killed.acked;
      totals.refused += ledger.refused.length - refusedBefore;
      totals.inFlightAtKill += killed.inFlightAtKill;
      // The check covers everything written so far, so its latest counts are the run's.
      Object.assign(totals, { inFlightCommitted: found.inFlightCommitted, lost: found.lost.length, gaps: found.gaps.length, torn: found.torn.length });
      for (const p of [...found.lost, ...found.gaps, ...found.torn]) problems.add(p);
    }
  } finally {
    console.log(JSON.stringify({ serverKills: { ...totals, unexpected: ledger.unexpected.length } }));
    await stopQuorum(server);
  }
  expect(ledger.unexpected, "answers other than 201, 409 and 429 while the server was up").toEqual([]);
  expect([...problems].slice(0, 20)).toEqual([]);
  expect(totals).toMatchObject({ cycles: CYCLES, lost: 0, gaps: 0, torn: 0 });
  rmSync(home, { recursive: true, force: true });
});

// Direct messages stay between their two ends on every read path (DESIGN §3, issue 14 item 2). The read
// paths are enumerated, not listed by hand: every GET route under app/api, every MCP tool that reads and
// every MCP resource is probed as a third agent looking for A's direct message to C — its text, and the
// ids of the events about it — or is named below with the reason it cannot carry one. A new read path
// without a probe fails the first test, so it cannot forget the rule.
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../db/client";
import { ROUTES as DECLARED } from "../surfaces/http/routes";
import { toolsOf } from "../surfaces/http/tools";
import { RESOURCES } from "../surfaces/mcp/resources";
import { manualClock } from "../domain/clock";
import { openDecision } from "../domain/decisions/open-decision";
import type { Principal } from "../domain/principal";
import { flushAgentDigest } from "../domain/rooms/agent-digest";
import { claimTask } from "../domain/tasks/claim";
import { discoverEndpoints, type Endpoint } from "./api-catalog";
import { makeReadyTask } from "./fixtures/board";
import { appendLooseEvent } from "./fixtures/journal";
import { ackAll, freshRoom, tryPost } from "./fixtures/room";
import { makeAgent, makeHuman, uniqueName } from "./helpers";
import { httpClient } from "./mcp/client";
import { a2aFetch } from "./a2a/client";

const clock = manualClock();

type Agent = Principal & { key: string };
interface World {
  a: Agent;
  b: Agent;
  c: Agent;
  human: Principal & { cookie: string };
  room: string;
  taskId: string;
  runId: string;
  decisionId: string;
  /** In the direct message and everything quoting it. */
  secret: string;
  /** In a public message of the same room and task: a probe that finds it (or its event) reached the data. */
  open: string;
  openEventId: number;
  dmId: number;
  /** The events about the direct message: it, its refused repeat, its deliveries, the digest, the run that read it. */
  hiddenEventIds: Set<number>;
  /** The newest event, public: a stream's catch-up has ended once it arrives. */
  lastEventId: number;
}

/** One way to read a path: params, query and headers; `sees` says the public message (its text or its event) must show: the probe reached the data. */
interface Probe {
  params?: (w: World) => Record<string, string>;
  query?: (w: World) => string;
  headers?: Record<string, string>;
  sees?: boolean;
}
type Coverage = Probe[] | { reason: string };

/** Every GET route: how a snooping agent reads it, or why it cannot hold a direct message. */
const ROUTES: Record<string, Coverage> = {
  "GET /api/agents": [{}],
  "GET /api/agents/[id]": [{ params: (w) => ({ id: w.a.id }) }, { params: (w) => ({ id: w.c.id }) }],
  "GET /api/agents/[id]/digest": [{ params: (w) => ({ id: w.c.id }) }, { params: (w) => ({ id: w.b.id }) }],
  "GET /api/agents/[id]/runs": [{ params: (w) => ({ id: w.c.id }) }],
  "GET /api/bill": [{}],
  "GET /api/bill/runs": [{}],
  "GET /api/bill/series": [{}],
  "GET /api/bill/tasks": [{}],
  "GET /api/commitments": [{}],
  "GET /api/commitments/graph": [{}],
  "GET /api/decisions": [{}],
  "GET /api/decisions/[id]": [{ params: (w) => ({ id: w.decisionId }) }],
  "GET /api/events": [{ query: () => "after=0&timeoutSeconds=0&limit=200", sees: true }],
  "GET /api/diagnosis": [{ query: (w) => `task=${w.taskId}` }, { query: (w) => `run=${w.runId}` }, { query: () => "since=0" }],
  "GET /api/health": [{}],
  "GET /api/journal": [
    { query: () => "limit=500", sees: true },
    { query: () => "after=0&limit=500", sees: true },
    { query: (w) => `q=${w.secret}` },
    { query: (w) => `q=${w.open}`, sees: true },
    { query: () => "kind=MessageSent&limit=500", sees: true },
    { query: () => "kind=MessageDelivered&limit=500" },
    { query: () => "kind=GateRejected&limit=500" },
    { query: () => "kind=DigestFlushed&limit=500" },
    { query: () => "kind=ModelResponded&limit=500" },
    { query: (w) => `task=${w.taskId}&limit=500`, sees: true },
    { query: (w) => `run=${w.runId}&limit=500` },
    { query: (w) => `actor=${w.a.id}&limit=500` },
    { query: (w) => `actor=${w.c.id}&limit=500` },
  ],
  "GET /api/journal/archives": { reason: "the archived months' bounds, counts and checksums (the file's path for humans only): no message, no room, no event" },
  "GET /api/journal/export": [{ query: (w) => `task=${w.taskId}`, sees: true }, { query: (w) => `run=${w.runId}` }],
  "GET /api/journal/runs/[id]": [{ params: (w) => ({ id: w.runId }) }],
  "GET /api/journal/runs/[id]/replay": [{ params: (w) => ({ id: w.runId }) }],
  "GET /api/journal/tasks/[id]/audit": [{ params: (w) => ({ id: w.taskId }) }],
  "GET /api/journal/tasks/[id]/thread": [{ params: (w) => ({ id: w.taskId }), sees: true }],
  "GET /api/lessons": [{}],
  "GET /api/mcp": { reason: "the MCP transport answers 405 to GET in stateless mode; its tools and resources are probed below" },
  "GET /api/experiments": { reason: "the tables `quorum experiment` saved to files, measured on scratch databases of their own: nothing of this hub's rooms" },
  "GET /metrics": { reason: "agents get 403, and it holds counts by gate, role, model and route pattern: no message, no room, no id" },
  "GET /api/openapi.json": { reason: "the API's description, built from zod schemas at start: shapes only, no data" },
  "GET /api/me": [{}],
  "GET /api/me/waiting": [{}],
  "GET /api/team": { reason: "the built-in team's mode and roles from its latest TeamStarted event: no message, no room" },
  "GET /api/flights": { reason: "flights, their goals and their tasks' numbers, titles and statuses: no message, no room" },
  "GET /api/flights/inspect": { reason: "a folder's branch, commit and detected test command (humans only): no message, no room" },
  "GET /api/flights/[id]": { reason: "one flight, its goal and its tasks' numbers, titles and statuses: no message, no room" },
  "GET /api/principles": [{}],
  "GET /api/reservations": [{}],
  "GET /api/rooms": [{}],
  "GET /api/rooms/[room]/cursor": [{ params: (w) => ({ room: w.room }) }],
  "GET /api/rooms/[room]/gates": [{ params: (w) => ({ room: w.room }) }],
  "GET /api/rooms/[room]/inbox": [{ params: (w) => ({ room: w.room }), sees: true }],
  "GET /api/rooms/[room]/messages": [{ params: (w) => ({ room: w.room }), sees: true }],
  "GET /api/rooms/[room]/presence": [{ params: (w) => ({ room: w.room }) }],
  "GET /api/stream": [{ headers: { "last-event-id": "0" } }],
  "GET /api/tasks": [{}],
  "GET /api/tasks/[id]": [{ params: (w) => ({ id: w.taskId }), sees: true }],
  "GET /api/tasks/[id]/output": [{ params: (w) => ({ id: w.taskId }) }],
  "GET /api/tasks/[id]/diff": [{ params: (w) => ({ id: w.taskId }) }],
  "GET /api/webhooks": { reason: "human-only (agents get 403), and it lists endpoints and delivery outcomes, never a message" },
  "GET /api/forges": { reason: "human-only (agents get 403), and it lists forge hosts and who connected them, never a message" },
  "GET /api/invitations": { reason: "human-only (agents get 403), and it lists invitations by name and expiry, never a message" },
  "GET /api/humans": { reason: "human-only (agents get 403), and it lists the humans' names and when they were seen, never a message" },
  "GET /api/a2a": { reason: "A2A's JSON-RPC is POSTed (405); its reads (GetTask, ListTasks, SubscribeToTask) are probed below" },
  "GET /.well-known/agent-card.json": { reason: "the agent card: the hub's interface and skills, the same for everyone, no data" },
};

/** Every MCP tool that only reads: its arguments as a snooping agent passes them. */
const READ_TOOLS: Record<string, ((w: World) => Record<string, unknown>)[]> = {
  whoami: [() => ({})],
  list_agents: [() => ({})],
  wait_for_events: [() => ({ after: 0, timeoutSeconds: 0, limit: 200 })],
  list_lessons: [() => ({})],
  diagnose: [(w) => ({ task: w.taskId }), (w) => ({ run: w.runId }), () => ({ since: "0" })],
  list_principles: [() => ({})],
  list_rooms: [() => ({})],
  read_messages: [(w) => ({ room: w.room })],
  read_inbox: [(w) => ({ room: w.room })],
  read_cursor: [(w) => ({ room: w.room })],
  room_presence: [(w) => ({ room: w.room })],
  read_digest: [(w) => ({ agentId: w.c.id }), () => ({})],
  list_tasks: [() => ({})],
  get_task: [(w) => ({ taskId: w.taskId })],
  read_output: [(w) => ({ taskId: w.taskId })],
  list_decisions: [() => ({})],
  get_decision: [(w) => ({ decisionId: w.decisionId })],
  list_commitments: [() => ({})],
  commitment_graph: [() => ({})],
  list_reservations: [() => ({})],
  check_paths: [() => ({ paths: ["src/index.ts"] })],
};

/** What in a reply betrays the direct message: its text, its id, or the id of an event about it. */
function leaksIn(w: World, text: string): string[] {
  const found: string[] = [];
  if (text.includes(w.secret)) found.push("its text");
  const visit = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (value === null || typeof value !== "object") return;
    const o = value as Record<string, unknown>;
    if (typeof o.id === "number" && typeof o.kind === "string" && w.hiddenEventIds.has(o.id)) found.push(`event ${o.id} (${o.kind})`);
    for (const key of ["eventId", "calledEventId", "respondedEventId"]) if (typeof o[key] === "number" && w.hiddenEventIds.has(o[key] as number)) found.push(`${key} ${o[key]}`);
    if (Array.isArray(o.eventIds) && o.eventIds.some((id) => w.hiddenEventIds.has(id as number))) found.push("eventIds");
    if (o.messageId === w.dmId || (Array.isArray(o.messageIds) && o.messageIds.includes(w.dmId))) found.push(`message ${w.dmId}`);
    Object.values(o).forEach(visit);
  };
  const parse = (s: string) => {
    try {
      visit(JSON.parse(s));
    } catch {
      // not JSON: the text check above is what applies
    }
  };
  parse(text);
  // JSON Lines (an export) and event-stream frames (`id:` lines, `data:` payloads).
  for (const line of text.split("\n")) {
    if (line.startsWith("data: ")) parse(line.slice(6));
    else if (line.startsWith("{")) parse(line);
    const frameId = /^id: (\d+)$/.exec(line);
    if (frameId && w.hiddenEventIds.has(Number(frameId[1]))) found.push(`stream frame ${frameId[1]}`);
  }
  return [...new Set(found)];
}

/** Reads an event stream until `done(text)` or the deadline, then hangs up. */
async function readStream(response: Response, abort: AbortController, done: (text: string) => boolean, ms = 5_000): Promise<string> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const timer = setTimeout(() => abort.abort(), ms);
  try {
    while (!done(text)) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // hung up at the deadline
  } finally {
    clearTimeout(timer);
    abort.abort();
    await reader.cancel().catch(() => {});
  }
  return text;
}

async function request(endpoint: Endpoint, who: { key?: string; cookie?: string }, params: Record<string, string> = {}, query = "", headers: Record<string, string> = {}) {
  let path = endpoint.route;
  for (const [name, value] of Object.entries(params)) path = path.replace(`[${name}]`, encodeURIComponent(value));
  const abort = new AbortController();
  const all: Record<string, string> = { host: "localhost", ...headers };
  if (who.key) all.authorization = `Bearer ${who.key}`;
  if (who.cookie) all.cookie = who.cookie;
  const req = new Request(`http://localhost${path}${query ? `?${query}` : ""}`, { method: endpoint.method, headers: all, signal: abort.signal });
  const response = await endpoint.handler(req, { params: Promise.resolve(params) });
  return { response, abort };
}

let world: World;
let endpoints: Endpoint[];

async function eventIdsWhere(condition: ReturnType<typeof sql>): Promise<number[]> {
  const rows = await getDb().execute<{ id: number }>(sql`select id from events where ${condition} order by id`);
  return rows.map((r) => Number(r.id));
}

beforeAll(async () => {
  endpoints = await discoverEndpoints();
  const db = getDb();
  const [a, b, c, human] = [await makeAgent(), await makeAgent(), await makeAgent(), await makeHuman()];
  const room = await freshRoom(human, "dm");
  const secret = uniqueName("dmsecret");
  const open = uniqueName("openword");
  const task = await makeReadyTask(human, {}, clock);
  // C works the task: claiming opens its focus window, so a message to it waits in its digest.
  await claimTask(db, c, task.id, clock);
  await ackAll(a, room, clock);
  const dm = await tryPost(a, room, { body: `between us: ${secret} is the password`, to: c.name, taskId: task.id, performative: "DONE" }, clock);
  if (!dm.ok) throw new Error(`the direct message was refused: ${JSON.stringify(dm)}`);
  // The same words again: the duplicate gate refuses them, and its GateRejected quotes them.
  const again = await tryPost(a, room, { body: `between us: ${secret} is the password`, to: c.name }, clock);
  expect(again).toMatchObject({ ok: false, code: "duplicate" });
  await flushAgentDigest(db, c, c.id, clock);
  // C's run reads the message as mail and quotes it.
  const runId = `run_${uniqueName("dm").replace(/\W/g, "")}`;
  const mail = [{ messageId: dm.message.id, room, from: a.id, fromName: a.name, performative: "DONE", taskId: task.id, body: dm.message.body }];
  const usage = { inputTokens: 10, outputTokens: 5, cachedTokens: 0, estimated: false };
  const call = { id: "c1", name: "read_file", arguments: { path: `notes/${secret}.md` } };
  await appendLooseEvent(db, {
    kind: "RunStarted",
    actor: c.id,
    runId,
    taskId: task.id,
    turn: 0,
    data: { task: "fix it", system: "", principles: [], tools: [], budgetIds: [], model: "scripted" },
  });
  await appendLooseEvent(db, {
    kind: "ModelCalled",
    actor: c.id,
    runId,
    taskId: task.id,
    turn: 1,
    data: { turn: 1, mail, context: { messages: 2, estimatedTokens: 10, droppedSteps: 0 } },
  });
  await appendLooseEvent(db, {
    kind: "ModelResponded",
    actor: c.id,
    runId,
    taskId: task.id,
    turn: 1,
    data: { text: `A says ${secret}`, toolCalls: [call], usage, model: "scripted" },
  });
  await appendLooseEvent(db, {
    kind: "ToolDispatched",
    actor: c.id,
    runId,
    taskId: task.id,
    turn: 1,
    data: { index: 0, callId: "c1", tool: "read_file", args: call.arguments, attempt: 1, writes: `notes/${secret}.md` },
  });
  await appendLooseEvent(db, {
    kind: "ToolReturned",
    actor: c.id,
    runId,
    taskId: task.id,
    turn: 1,
    data: { index: 0, callId: "c1", tool: "read_file", attempt: 1, observation: { is_error: false, result: secret } },
  });
  await appendLooseEvent(db, {
    kind: "AgentFinished",
    actor: c.id,
    runId,
    taskId: task.id,
    turn: 1,
    data: { result: { status: "inconclusive", reason: "stopped early", turns: 1, spent: 15 } },
  });
  // The monitor's finding about the direct message cites it as evidence, beside one that cites only public events.
  const [dmEvent] = await eventIdsWhere(sql`kind = 'MessageSent' and data->>'messageId' = ${String(dm.message.id)}`);
  const cite = (eventIds: number[]) =>
    appendLooseEvent(db, {
      kind: "DiagnosisFound",
      actor: null,
      taskId: task.id,
      data: {
        key: `FM-2.5:${eventIds[0]}@low`,
        flightId: task.id,
        mode: "FM-2.5",
        name: "Ignored other agent's input",
        category: 2,
        severity: "low",
        sentence: "c did not answer",
        eventIds,
        runIds: [],
        taskIds: [task.id],
        agents: [],
      },
    });
  await cite([dmEvent]);
  await cite([(await eventIdsWhere(sql`kind = 'TaskClaimed' and task_id = ${task.id}`))[0]]);
  const decision = await openDecision(
    db,
    human,
    { question: `Ship ${open}?`, options: ["yes", "no"], defaultOption: "no", consequence: "we wait", quorum: 2, timeboxSeconds: 600, escalationTimeboxSeconds: 600 },
    clock,
  );
  // A public message about the same task, last: every probe that reaches the data shows it.
  const said = await tryPost(human, room, { body: `for everyone: ${open}`, taskId: task.id }, clock);
  if (!said.ok) throw new Error("the public message was refused");
  const dmId = dm.message.id;
  const hidden = await eventIdsWhere(
    sql`data::text like ${`%${secret}%`} or data->>'messageId' = ${String(dmId)} or data->'messageIds' @> ${JSON.stringify([dmId])}::jsonb or (run_id = ${runId} and kind = 'ModelCalled')
      or (kind = 'DiagnosisFound' and data->'eventIds' @> ${JSON.stringify([dmEvent])}::jsonb)`,
  );
  const [last] = await eventIdsWhere(sql`id = (select max(id) from events)`);
  const [openEventId] = await eventIdsWhere(sql`kind = 'MessageSent' and data->>'messageId' = ${String(said.message.id)}`);
  world = { a, b, c, human, room, taskId: task.id, runId, decisionId: decision.id, secret, open, openEventId, dmId, hiddenEventIds: new Set(hidden), lastEventId: last };
  // The scene has what the probes look for: the message, its refusal, its deliveries, the digest and the run.
  const kinds = await getDb().execute<{ kind: string }>(sql`select distinct kind from events where id = any(${sql.param(hidden)}::bigint[])`);
  expect(new Set(kinds.map((k) => k.kind))).toEqual(
    new Set(["MessageSent", "GateRejected", "MessageDelivered", "DigestFlushed", "ModelCalled", "ModelResponded", "ToolDispatched", "ToolReturned", "DiagnosisFound"]),
  );
  const [{ n }] = await getDb().execute<{ n: number }>(sql`select count(*)::int as n from events`);
  expect(n, "the whole journal fits one page of every probe").toBeLessThan(200);
});

async function readAs(endpoint: Endpoint, who: { key?: string; cookie?: string }, probe: Probe): Promise<{ status: number; text: string }> {
  const { response, abort } = await request(endpoint, who, probe.params?.(world), probe.query?.(world), probe.headers);
  if ((response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    // The catch-up has ended once the newest event (public) has arrived.
    return { status: response.status, text: await readStream(response, abort, (text) => text.includes(`id: ${world.lastEventId}\n`)) };
  }
  return { status: response.status, text: await response.text() };
}

describe("direct messages on every read path", () => {
  it("has a probe or a reason for every GET route and every MCP tool that reads, and none for paths that are gone", () => {
    const gets = endpoints.filter((e) => e.method === "GET").map((e) => e.key);
    expect(
      gets.filter((k) => !(k in ROUTES)),
      "GET routes without a probe or a reason in ROUTES",
    ).toEqual([]);
    expect(
      Object.keys(ROUTES).filter((k) => !gets.includes(k)),
      "ROUTES rows for routes that are gone",
    ).toEqual([]);
    const reading = toolsOf(DECLARED)
      .filter((t) => t.annotations.readOnlyHint)
      .map((t) => t.name);
    expect(
      reading.filter((n) => !(n in READ_TOOLS)),
      "MCP read tools without a probe in READ_TOOLS",
    ).toEqual([]);
    expect(
      Object.keys(READ_TOOLS).filter((n) => !reading.includes(n)),
      "READ_TOOLS rows for tools that are gone or write",
    ).toEqual([]);
  });

  it("never shows agent B the message A sent C, nor any event about it, over REST", async () => {
    const leaks: string[] = [];
    for (const endpoint of endpoints.filter((e) => e.method === "GET")) {
      const coverage = ROUTES[endpoint.key];
      if (!coverage || !Array.isArray(coverage)) continue;
      for (const probe of coverage) {
        const label = `${endpoint.key} ${JSON.stringify(probe.params?.(world) ?? {})} ?${probe.query?.(world) ?? ""}`;
        const { status, text } = await readAs(endpoint, { key: world.b.key }, probe);
        if (status >= 500) leaks.push(`${label}: ${status} ${text.slice(0, 200)}`);
        for (const leak of leaksIn(world, text)) leaks.push(`${label}: ${leak}`);
        if (probe.sees && !text.includes(world.open) && !text.includes(`"id":${world.openEventId},`))
          leaks.push(`${label}: the probe did not reach the data (${status} ${text.slice(0, 120)})`);
      }
    }
    expect(leaks).toEqual([]);
  }, 60_000);

  it("never shows agent B the message over MCP tools or resources", async () => {
    const client = await httpClient(world.b.key);
    const leaks: string[] = [];
    try {
      for (const [name, calls] of Object.entries(READ_TOOLS)) {
        for (const args of calls) {
          const result = await client.callTool({ name, arguments: args(world) });
          for (const leak of leaksIn(world, JSON.stringify(result.structuredContent ?? result.content))) leaks.push(`${name} ${JSON.stringify(args(world))}: ${leak}`);
        }
      }
      for (const resource of RESOURCES) {
        const read = await client.readResource({ uri: resource.uri });
        for (const content of read.contents) for (const leak of leaksIn(world, "text" in content ? content.text : content.blob)) leaks.push(`${resource.uri}: ${leak}`);
      }
    } finally {
      await client.close();
    }
    expect(leaks).toEqual([]);
  });

  // Four reads of a shared database that every other file fills: under a full run's load they may take a while.
  it("never shows agent B the message over A2A's reads: GetTask, ListTasks, SubscribeToTask", { timeout: 90_000 }, async () => {
    const leaks: string[] = [];
    const reads: [string, unknown][] = [
      ["GetTask", { id: world.taskId }],
      ["ListTasks", { includeArtifacts: true, pageSize: 100 }],
      ["ListTasks", { contextId: world.taskId }],
      ["SubscribeToTask", { id: world.taskId }],
    ];
    for (const [method, params] of reads) {
      const abort = new AbortController();
      const response = await a2aFetch(world.b.key)("http://localhost/api/a2a", {
        method: "POST",
        headers: { "content-type": "application/json", "a2a-version": "1.0", host: "localhost" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
        signal: abort.signal,
      });
      // A subscription stays open: its first event (the task as it is) is what it shows.
      const text = response.headers.get("content-type")?.startsWith("text/event-stream")
        ? await readStream(response, abort, (sofar) => sofar.includes("\n\n"))
        : await response.text();
      if (response.status >= 500 || !text.includes(world.taskId)) leaks.push(`${method}: did not reach the task (${response.status} ${text.slice(0, 120)})`);
      for (const leak of leaksIn(world, text)) leaks.push(`${method} ${JSON.stringify(params)}: ${leak}`);
    }
    expect(leaks).toEqual([]);
  });

  it("forwards agent B no live notice of a direct message, in order with the public ones", async () => {
    const stream = endpoints.find((e) => e.key === "GET /api/stream")!;
    const { response, abort } = await request(stream, { key: world.b.key });
    let text = "";
    const reading = readStream(
      response,
      abort,
      (sofar) => {
        text = sofar;
        return false;
      },
      15_000,
    );
    const until = async (what: string, check: () => boolean) => {
      for (const deadline = Date.now() + 10_000; !check(); await new Promise((resolve) => setTimeout(resolve, 20))) {
        if (Date.now() > deadline) throw new Error(`no ${what} on the stream: ${text}`);
      }
    };
    await until("ready", () => text.includes("event: ready"));
    const secret = uniqueName("livesecret");
    await ackAll(world.a, world.room, clock);
    const dm = await tryPost(world.a, world.room, { body: `quietly: ${secret}`, to: world.c.name }, clock);
    const said = await tryPost(world.human, world.room, `out loud after ${secret}`.replace(secret, "the secret"), clock);
    if (!dm.ok || !said.ok) throw new Error("a post was refused");
    const [dmEvent] = await eventIdsWhere(sql`kind = 'MessageSent' and data->>'messageId' = ${String(dm.message.id)}`);
    const dmDelivered = await eventIdsWhere(sql`kind = 'MessageDelivered' and data->>'messageId' = ${String(dm.message.id)}`);
    const [publicEvent] = await eventIdsWhere(sql`kind = 'MessageSent' and data->>'messageId' = ${String(said.message.id)}`);
    await until(`frame ${publicEvent}`, () => text.includes(`id: ${publicEvent}\n`));
    abort.abort();
    await reading;
    const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(ids).toContain(publicEvent);
    expect(ids).not.toContain(dmEvent);
    for (const id of dmDelivered) expect(ids).not.toContain(id);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
  });

  it("shows the message to humans, and to its two ends", async () => {
    const journal = endpoints.find((e) => e.key === "GET /api/journal")!;
    const probe = { query: () => `q=${world.secret}` };
    expect((await readAs(journal, { cookie: world.human.cookie }, probe)).text).toContain(world.secret);
    expect((await readAs(journal, { key: world.a.key }, probe)).text).toContain(world.secret);
    expect((await readAs(journal, { key: world.c.key }, probe)).text).toContain(world.secret);
    const thread = endpoints.find((e) => e.key === "GET /api/journal/tasks/[id]/thread")!;
    expect((await readAs(thread, { cookie: world.human.cookie }, { params: (w) => ({ id: w.taskId }) })).text).toContain(world.secret);
    const run = endpoints.find((e) => e.key === "GET /api/journal/runs/[id]")!;
    expect((await readAs(run, { key: world.c.key }, { params: (w) => ({ id: w.runId }) })).text).toContain(world.secret);
    const stream = endpoints.find((e) => e.key === "GET /api/stream")!;
    const seen = await readAs(stream, { cookie: world.human.cookie }, { headers: { "last-event-id": "0" } });
    const ids = new Set([...seen.text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1])));
    expect([...world.hiddenEventIds].every((id) => ids.has(id))).toBe(true);
  });
});

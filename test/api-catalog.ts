// Every API endpoint with a way to reach it: the declarations the router serves (surfaces/http/routes/, so a new
// endpoint cannot be forgotten), plus, per endpoint, the resource it acts on and a
// valid body. Shared by the authorization matrix (test/authz-matrix.test.ts), the fuzzer (test/fuzz.test.ts)
// and `npm run chaos`.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { randomBytes } from "node:crypto";
import { createScratchRepo } from "../agents/demo/scratch-repo";
import { failureAdvice } from "../agents/model/model-client";
import { getDb } from "../db/client";
import { flightProposals } from "../db/schema";
import { createBudget } from "../domain/budgets/create";
import { listReservations } from "../domain/reservations/list";
import { releaseReservation } from "../domain/reservations/release";
import { systemClock } from "../domain/clock";
import { handGoalBack } from "../domain/flights/hand-back";
import { acceptByHand } from "./fixtures/accepted-flight";
import { launchFlight } from "../domain/flights/launch";
import { announceTeamStarted, ensureTeamMember } from "../domain/flights/team-members";
import { loadRunEvents } from "../domain/journal/load";
import { claimTask } from "../domain/tasks/claim";
import { createInvitation } from "../domain/principals/invitations";
import { appendLooseEvent } from "./fixtures/journal";
import { makeAgent, makeHuman } from "./helpers";
import { ROUTES } from "../surfaces/http/routes";
import { apiHandler } from "./api";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Routes are imported at run time, so their own params types are unknown here; Next hands every segment over as a string. */
type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response> | Response;

export interface Endpoint {
  /** `POST /api/tasks/[id]/claim` */
  key: string;
  method: string;
  /** `/api/tasks/[id]/claim` */
  route: string;
  handler: Handler;
}

/**
 * One endpoint per declaration (surfaces/http/routes/), in the document's order: /api ones answered through the one
 * router, the two beside it (A2A's agent card, Prometheus's /metrics) by their page routes under app/.
 */
export async function discoverEndpoints(): Promise<Endpoint[]> {
  const out: Endpoint[] = [];
  for (const spec of ROUTES) {
    const method = spec.method.toUpperCase();
    const route = spec.path.replace(/\{(\w+)\}/g, "[$1]");
    const handler = spec.run ? apiHandler(method, route) : ((await import(pathToFileURL(join(root, "app", route, "route.ts")).href)) as Record<string, Handler>)[method];
    out.push({ key: `${method} ${route}`, method, route, handler: handler as Handler });
  }
  return out;
}

export type Team = Awaited<ReturnType<typeof makeTeam>>;
export type Who = "anonymous" | "agent" | "other" | "human";
export const WHO: Who[] = ["anonymous", "agent", "other", "human"];

export interface Reply {
  status: number;
  body: unknown;
  contentType: string;
}

export interface SendOptions {
  who: Who;
  params?: Record<string, string>;
  query?: string;
  /** A JSON value, or a raw string sent as is. */
  body?: unknown;
  raw?: boolean;
  contentType?: string | null;
  origin?: string;
  /** The session cookie `human` sends, when not the team's (a fixture's own human, signing out). */
  cookie?: string;
}

/** Calls a route handler as Next would; an event stream is cancelled after its headers. */
export async function send(team: Team, endpoint: Endpoint, options: SendOptions): Promise<Reply> {
  const headers: Record<string, string> = { host: "localhost" };
  if (options.who === "agent") headers.authorization = `Bearer ${team.agent.key}`;
  if (options.who === "other") headers.authorization = `Bearer ${team.other.key}`;
  if (options.who === "human") headers.cookie = options.cookie ?? team.human.cookie;
  if (options.origin) headers.origin = options.origin;
  const hasBody = endpoint.method !== "GET" && endpoint.method !== "DELETE";
  if (hasBody && options.contentType !== null) headers["content-type"] = options.contentType ?? "application/json";
  // MCP speaks JSON-RPC over Streamable HTTP and wants both answers acceptable; A2A's clients name their version.
  if (endpoint.route === "/api/mcp") headers.accept = "application/json, text/event-stream";
  if (endpoint.route === "/api/a2a") headers["a2a-version"] = "1.0";
  let path = endpoint.route;
  for (const [name, value] of Object.entries(options.params ?? {})) path = path.replace(`[${name}]`, encodeURIComponent(value));
  const payload = options.body === undefined ? "{}" : options.raw ? String(options.body) : JSON.stringify(options.body);
  const abort = new AbortController();
  const request = new Request(`http://localhost${path}${options.query ? `?${options.query}` : ""}`, {
    method: endpoint.method,
    headers,
    body: hasBody ? payload : undefined,
    signal: abort.signal,
  });
  const response = await endpoint.handler(request, { params: Promise.resolve(options.params ?? {}) });
  const contentType = response.headers.get("content-type") ?? "";
  if (contentType.startsWith("text/event-stream")) {
    abort.abort();
    await response.body?.cancel().catch(() => {});
    return { status: response.status, body: undefined, contentType };
  }
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON (an export, say): keep the text
  }
  return { status: response.status, body, contentType };
}

/** The cast: `agent` owns what it acts on, `other` is a second agent, `human` is signed in by cookie. */
export async function makeTeam() {
  const [agent, other, human] = [await makeAgent(), await makeAgent(), await makeHuman()];
  return { agent, other, human };
}

type Json = Record<string, unknown>;
const ADR = { title: "Superseded", context: "Covered elsewhere.", decision: "Cancel.", consequences: "Nothing lost." };

/** Makes one request as a given principal through the real handler; throws unless it succeeded. */
async function as(team: Team, endpoints: Map<string, Endpoint>, who: Who, key: string, params: Record<string, string>, body: unknown): Promise<Json> {
  const endpoint = endpoints.get(key);
  if (!endpoint) throw new Error(`fixture needs ${key}`);
  const reply = await send(team, endpoint, { who, params, body });
  if (reply.status >= 300) throw new Error(`fixture ${key} as ${who}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body as Json;
}

export interface Setup {
  params: Record<string, string>;
  body?: unknown;
  query?: string;
  /** A fresh human's session cookie, for an endpoint that ends the session it is called with. */
  cookie?: string;
}

/** Per endpoint: create the resource it acts on (fresh every call) and return its params and a valid body. */
export function setups(team: Team, endpoints: Map<string, Endpoint>): Record<string, () => Promise<Setup>> {
  const A = (who: Who, key: string, params: Record<string, string>, body: unknown) => as(team, endpoints, who, key, params, body);
  let n = 0;
  // Random too: test files run in parallel on one database, and two setups in the same millisecond once named the same reservation path.
  const uniq = (what: string) => `${what} ${Date.now().toString(36)}-${n++}-${randomBytes(3).toString("hex")}`;
  const readyTask = async () => (await A("human", "POST /api/tasks", {}, { title: uniq("task"), acceptanceCriteria: "it works" })) as { id: string };
  /** A task the agent owns (in progress), approved by the human. */
  const ownedTask = async () => {
    const t = await readyTask();
    const claimed = (await A("agent", "POST /api/tasks/[id]/claim", { id: t.id }, {})) as { id: string; fence: number };
    return claimed;
  };
  const inReview = async () => {
    const t = await ownedTask();
    await A("agent", "POST /api/tasks/[id]/submit", { id: t.id }, { fence: t.fence, summary: "done", evidence: "tests pass" });
    return t;
  };
  const doneTask = async () => {
    const t = await inReview();
    await A("human", "POST /api/tasks/[id]/review", { id: t.id }, { verdict: "accept" });
    return t;
  };
  const decision = async () =>
    (await A(
      "human",
      "POST /api/decisions",
      {},
      {
        question: uniq("which?"),
        options: ["a", "b"],
        defaultOption: "a",
        consequence: "a is adopted",
        quorum: 3,
        timeboxSeconds: 3600,
        escalationTimeboxSeconds: 3600,
      },
    )) as { id: string };
  const commitment = async () => (await A("agent", "POST /api/commitments", {}, { what: uniq("I'll do it") })) as { id: string };
  const confirmed = async () => {
    const c = await commitment();
    await A("agent", "POST /api/commitments/[id]/confirm", { id: c.id }, {});
    return c;
  };
  const principle = async () => (await A("human", "POST /api/principles", {}, { text: uniq("keep it simple") })) as { id: string };
  /**
   * An agent may hold 8 live reservations: the fixture's agent lets go of earlier cells' grants before a
   * new one (the matrix runs the reservation endpoints one at a time, so no cell's grant is in use).
   */
  const releaseAgentReservations = async () => {
    const held = await listReservations(getDb(), team.agent, { holder: "me" }, systemClock.now());
    for (const r of held.items) await releaseReservation(getDb(), team.agent, r.id, { fence: r.fence }, systemClock);
  };
  const reservation = async () => {
    await releaseAgentReservations();
    return (await A("agent", "POST /api/reservations", {}, { patterns: [`src/${uniq("x").replace(/\W/g, "")}/**`], reason: "editing" })) as { id: string; fence: number };
  };
  /** A top-level budget of the agent's, funded by the harness. */
  const budget = () => createBudget(getDb(), null, { ownerId: team.agent.id, allowance: 1000 }, systemClock);
  /** A run of the agent's that has started and not finished (a stop is still possible). */
  const liveRun = async () => {
    const runId = `run_${randomBytes(8).toString("hex")}`;
    await appendLooseEvent(getDb(), { kind: "RunStarted", actor: team.agent.id, runId, turn: 0, data: { budgetIds: [], tools: [] } });
    return runId;
  };
  /** A run its operator stopped, with no task: what a human may resume. */
  const stoppedRun = async () => {
    const runId = await liveRun();
    const result = { status: "stopped", reason: "an operator asked to stop", turns: 0, toolCalls: 0, spent: 0 };
    await appendLooseEvent(getDb(), { kind: "RunStopped", actor: team.agent.id, runId, turn: 0, data: { result } });
    return runId;
  };
  /** A flight whose goal came back to the human (the agent held it, its model failed). */
  const handedBack = async () => {
    // A flight's REQUEST is addressed to the team's orchestrator.
    await ensureTeamMember(getDb(), "orchestrator", "orchestrator", 1000, systemClock);
    const repo = createScratchRepo(mkdtempSync(join(tmpdir(), "quorum-catalog-")));
    const { flight, goalTask } = await launchFlight(getDb(), team.human, { goal: uniq("goal"), repo, mode: "scripted" }, systemClock);
    await claimTask(getDb(), team.agent, goalTask.id, systemClock);
    await handGoalBack(
      getDb(),
      team.agent,
      flight,
      { runId: null, outcome: "failed", reason: "HTTP 500", model: "openai-compatible:m", advice: failureAdvice(null, "HTTP 500") },
      systemClock,
    );
    return flight;
  };
  /** A name nobody has, as principal names are written (no spaces). */
  const inviteeName = () => `invitee-${randomBytes(5).toString("hex")}`;
  /** An open invitation the human made, with its token (the link's secret). */
  const invitation = () => createInvitation(getDb(), team.human, { name: inviteeName() }, systemClock);
  /** A flight whose goal its human accepted: its branch has one reviewed commit, ready to merge. */
  const acceptedFlight = async () => {
    await ensureTeamMember(getDb(), "orchestrator", "orchestrator", 1000, systemClock);
    const repo = createScratchRepo(mkdtempSync(join(tmpdir(), "quorum-catalog-")));
    const { flight } = await launchFlight(getDb(), team.human, { goal: uniq("goal"), repo, mode: "scripted" }, systemClock);
    await acceptByHand(getDb(), flight, team.agent, team.human);
    return flight;
  };
  /** A high finding the monitor journalled on a flight: its key, as the desk names it. */
  const finding = async () => {
    const key = `FM-3.2:${randomBytes(4).readUInt32BE()}`;
    await appendLooseEvent(getDb(), {
      kind: "DiagnosisFound",
      actor: null,
      data: {
        key: `${key}@high`,
        flightId: "00000000-0000-4000-8000-000000000001",
        mode: "FM-3.2",
        name: "No or incomplete verification",
        category: 3,
        severity: "high",
        sentence: "reviewer accepted #1 with a test run that exited 1 behind it",
        eventIds: [],
        runIds: [],
        taskIds: [],
        agents: [],
      },
    });
    return key;
  };
  const webhook = async () => (await A("human", "POST /api/webhooks", {}, { url: "http://127.0.0.1:9/hook", events: ["agent.stalled"] })) as { id: string };
  /** A host nobody connected yet, and a token of the shape a forge issues. */
  const forgeBody = () => ({ host: `git-${randomBytes(4).toString("hex")}.example.test`, token: `ghp_${randomBytes(12).toString("hex")}` });
  const forge = async () => (await A("human", "POST /api/forges", {}, forgeBody())) as { id: string };
  /** A flight proposed from an issue of a repository nobody can fetch: deciding it never reaches a forge. */
  const proposal = async (state: "waiting" | "dismissed") => {
    const issue = randomBytes(3).readUIntBE(0, 3);
    const [row] = await getDb()
      .insert(flightProposals)
      .values({
        host: "github.example.test",
        remote: "https://github.example.test/team/app.git",
        issueNumber: issue,
        issueUrl: `https://github.example.test/team/app/issues/${issue}`,
        title: uniq("Fix the dates"),
        body: "They are off by one.",
        state,
        createdAt: new Date(),
      })
      .returning();
    return row;
  };
  const none = async (): Promise<Setup> => ({ params: {} });
  const room = { room: "general" };
  return {
    "GET /api/agents": none,
    "POST /api/agents": async () => ({ params: {}, body: { name: uniq("bot").replace(/\W/g, "-"), role: "coder" } }),
    "GET /api/agents/[id]": async () => ({ params: { id: team.agent.id } }),
    "GET /api/agents/[id]/digest": async () => ({ params: { id: team.agent.id } }),
    "POST /api/agents/[id]/digest": async () => ({ params: { id: team.agent.id }, body: {} }),
    "GET /api/agents/[id]/runs": async () => ({ params: { id: team.agent.id } }),
    // A fresh agent each time: ending the team's own keys would lock its agents out of every other cell.
    "POST /api/agents/[id]/keys": async () => ({ params: { id: (await makeAgent()).id }, body: {} }),
    "DELETE /api/agents/[id]/keys": async () => ({ params: { id: (await makeAgent()).id } }),
    "GET /api/invitations": none,
    "POST /api/invitations": async () => ({ params: {}, body: { name: inviteeName(), expiresInHours: 24 } }),
    "DELETE /api/invitations/[id]": async () => ({ params: { id: (await invitation()).invitation.id } }),
    "POST /api/invitations/look": async () => ({ params: {}, body: { token: (await invitation()).token } }),
    "POST /api/invitations/accept": async () => ({ params: {}, body: { token: (await invitation()).token } }),
    "GET /api/humans": none,
    "DELETE /api/humans/[id]": async () => ({ params: { id: (await makeHuman()).id } }),
    "POST /api/agents/[id]/flight-allowance": async () => ({ params: { id: (await makeAgent()).id }, body: { tokens: 100_000 } }),
    "GET /api/bill": none,
    "GET /api/bill/runs": none,
    "GET /api/bill/series": none,
    "GET /api/bill/tasks": none,
    "POST /api/budgets/[id]/allowance": async () => ({ params: { id: (await budget()).id }, body: { allowance: 2000 } }),
    "GET /api/commitments": none,
    "POST /api/commitments": async () => ({ params: {}, body: { what: uniq("I'll take it") } }),
    "GET /api/commitments/graph": none,
    "POST /api/commitments/[id]/confirm": async () => ({ params: { id: (await commitment()).id }, body: {} }),
    "POST /api/commitments/[id]/fulfil": async () => ({ params: { id: (await confirmed()).id }, body: { reason: "shipped" } }),
    "POST /api/commitments/[id]/withdraw": async () => ({ params: { id: (await confirmed()).id }, body: { reason: "changed plans" } }),
    "POST /api/commitments/[id]/dependencies": async () => {
      const [blocked, blocker] = [await confirmed(), await confirmed()];
      return { params: { id: blocked.id }, body: { blockerId: blocker.id } };
    },
    "GET /api/decisions": none,
    "POST /api/decisions": async () => ({
      params: {},
      body: { question: uniq("which?"), options: ["a", "b"], defaultOption: "a", consequence: "a is adopted", quorum: 2, timeboxSeconds: 60, escalationTimeboxSeconds: 60 },
    }),
    "GET /api/decisions/[id]": async () => ({ params: { id: (await decision()).id } }),
    "POST /api/decisions/[id]/ballots": async () => ({ params: { id: (await decision()).id }, body: { option: "a", reasoning: "simpler" } }),
    "POST /api/decisions/[id]/resolve": async () => ({ params: { id: (await decision()).id }, body: { option: "a" } }),
    "GET /api/events": none,
    "GET /api/diagnosis": async () => ({ params: {}, query: `task=${(await ownedTask()).id}` }),
    "POST /api/diagnosis/answers": async () => ({ params: {}, body: { key: await finding(), verdict: "acknowledged", note: "seen" } }),
    "GET /api/health": none,
    "GET /api/journal": none,
    "GET /api/journal/archives": none,
    "GET /api/journal/export": async () => ({ params: {}, query: `task=${(await ownedTask()).id}` }),
    "GET /api/journal/runs/[id]": async () => ({ params: { id: "00000000-0000-4000-8000-000000000000" } }),
    "GET /api/journal/runs/[id]/replay": async () => ({ params: { id: "00000000-0000-4000-8000-000000000000" } }),
    // A run that kept no record of its files: a human's fork is refused (409 not_forkable), anyone else's before that.
    "POST /api/journal/runs/[id]/fork": async () => {
      const id = await liveRun();
      return { params: { id }, body: { until: (await loadRunEvents(getDb(), id))[0].id, script: [{ text: "carry on" }] } };
    },
    "GET /api/journal/tasks/[id]/audit": async () => ({ params: { id: (await doneTask()).id } }),
    "GET /api/journal/tasks/[id]/thread": async () => ({ params: { id: (await ownedTask()).id } }),
    "GET /api/lessons": none,
    "POST /api/lessons": async () => ({ params: {}, body: { text: uniq("small steps") } }),
    "POST /api/mcp": async () => ({ params: {}, body: { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} } }),
    "GET /api/mcp": none,
    "DELETE /api/mcp": none,
    "GET /api/openapi.json": none,
    "GET /api/me": none,
    "GET /api/me/waiting": none,
    "POST /api/flights/[id]/retry": async () => ({ params: { id: (await handedBack()).id }, body: { mode: "scripted" } }),
    "POST /api/flights/[id]/merge": async () => ({ params: { id: (await acceptedFlight()).id }, body: {} }),
    "POST /api/flights/[id]/close": async () => ({ params: { id: (await handedBack()).id }, body: { reason: "We went another way." } }),
    "GET /api/flights": none,
    "GET /api/experiments": none,
    "POST /api/flights": async () => {
      // A live team is running (its worker announced a model), so the hub takes a flight of one's own.
      await ensureTeamMember(getDb(), "orchestrator", "orchestrator", 1000, systemClock);
      await announceTeamStarted(getDb(), ["orchestrator", "coder", "reviewer", "tester"], "openai-compatible:stand-in", systemClock);
      return { params: {}, body: { repo: createScratchRepo(mkdtempSync(join(tmpdir(), "quorum-catalog-"))), goal: uniq("goal") } };
    },
    "GET /api/flights/inspect": async () => ({ params: {}, query: `repo=${encodeURIComponent(createScratchRepo(mkdtempSync(join(tmpdir(), "quorum-catalog-"))))}` }),
    "GET /api/flights/[id]": async () => ({ params: { id: (await handedBack()).id } }),
    "GET /api/team": none,
    "GET /api/principles": none,
    "POST /api/principles": async () => ({ params: {}, body: { text: uniq("measure first") } }),
    "POST /api/principles/[id]/pin": async () => {
      const p = await principle();
      await A("human", "POST /api/principles/[id]/unpin", { id: p.id }, {});
      return { params: { id: p.id }, body: {} };
    },
    "POST /api/principles/[id]/unpin": async () => ({ params: { id: (await principle()).id }, body: {} }),
    "GET /api/reservations": none,
    "POST /api/reservations": async () => {
      await releaseAgentReservations();
      return { params: {}, body: { patterns: [`lib/${uniq("m").replace(/\W/g, "")}.ts`], reason: "editing" } };
    },
    "POST /api/reservations/check": async () => ({ params: {}, body: { paths: ["src/index.ts"] } }),
    "POST /api/reservations/[id]/release": async () => {
      const r = await reservation();
      return { params: { id: r.id }, body: { fence: r.fence } };
    },
    "POST /api/reservations/[id]/renew": async () => {
      const r = await reservation();
      return { params: { id: r.id }, body: { fence: r.fence } };
    },
    "POST /api/reservations/[id]/force-release": async () => ({ params: { id: (await reservation()).id }, body: { reason: "holder is gone" } }),
    "GET /api/rooms": none,
    "POST /api/rooms": async () => ({ params: {}, body: { name: uniq("room").replace(/\W/g, "-").toLowerCase() } }),
    "GET /api/rooms/[room]/cursor": async () => ({ params: room }),
    "POST /api/rooms/[room]/cursor": async () => ({ params: room, body: { seq: 0 } }),
    "GET /api/rooms/[room]/gates": async () => ({ params: room }),
    "GET /api/rooms/[room]/inbox": async () => ({ params: room }),
    "GET /api/rooms/[room]/messages": async () => ({ params: room }),
    "POST /api/rooms/[room]/messages": async () => ({ params: room, body: { body: uniq("hello"), to: team.other.name } }),
    "GET /api/rooms/[room]/presence": async () => ({ params: room }),
    "POST /api/runs/[id]/stop": async () => ({ params: { id: await liveRun() }, body: { reason: "wrong approach" } }),
    "POST /api/runs/[id]/resume": async () => ({ params: { id: await stoppedRun() }, body: { reason: "carry on" } }),
    // A fresh human's session each time, so signing out never ends the team human's.
    "POST /api/session/sign-out": async () => ({ params: {}, body: {}, cookie: (await makeHuman()).cookie }),
    "GET /api/stream": none,
    "GET /api/tasks": none,
    "POST /api/tasks": async () => ({ params: {}, body: { title: uniq("task"), acceptanceCriteria: "works" } }),
    // A task approved by a bystander, so every caller may claim it: one the human approves (readyTask) is not the
    // human's to take, so the human's claim leaned on what the other endpoints' fixtures had left ready.
    "POST /api/tasks/claim-next": async () => {
      await A("human", "POST /api/tasks", {}, { title: uniq("task"), acceptanceCriteria: "it works", approverId: (await makeAgent()).id });
      return { params: {}, body: {} };
    },
    "GET /api/tasks/[id]": async () => ({ params: { id: (await readyTask()).id } }),
    "PATCH /api/tasks/[id]": async () => ({ params: { id: (await readyTask()).id }, body: { title: "A clearer title" } }),
    "POST /api/tasks/[id]/claim": async () => ({ params: { id: (await readyTask()).id }, body: {} }),
    "POST /api/tasks/[id]/heartbeat": async () => {
      const t = await ownedTask();
      return { params: { id: t.id }, body: { fence: t.fence } };
    },
    "GET /api/tasks/[id]/output": async () => ({ params: { id: (await ownedTask()).id } }),
    "GET /api/tasks/[id]/diff": async () => ({ params: { id: (await ownedTask()).id } }),
    "POST /api/tasks/[id]/output": async () => {
      const t = await ownedTask();
      return { params: { id: t.id }, body: { fence: t.fence, items: [{ line: 1 }] } };
    },
    "POST /api/tasks/[id]/submit": async () => {
      const t = await ownedTask();
      return { params: { id: t.id }, body: { fence: t.fence, summary: "done", evidence: "tests pass" } };
    },
    "POST /api/tasks/[id]/review": async () => ({ params: { id: (await inReview()).id }, body: { verdict: "reject", reason: "add a test" } }),
    "POST /api/tasks/[id]/comments": async () => ({ params: { id: (await inReview()).id }, body: { path: "src/parse.js", line: 2, body: "handle the empty input here" } }),
    "DELETE /api/tasks/[id]/comments/[commentId]": async () => {
      const t = await inReview();
      const comment = (await A("human", "POST /api/tasks/[id]/comments", { id: t.id }, { path: "src/parse.js", line: 2, body: "not this line after all" })) as { id: string };
      return { params: { id: t.id, commentId: comment.id } };
    },
    "POST /api/tasks/[id]/reopen": async () => ({ params: { id: (await doneTask()).id }, body: { evidence: "a new failing test" } }),
    "POST /api/tasks/[id]/cancel": async () => ({ params: { id: (await ownedTask()).id }, body: { adr: ADR } }),
    "GET /api/webhooks": none,
    "POST /api/webhooks": async () => ({ params: {}, body: { url: "https://example.test/hook", events: ["review.requested"] } }),
    "DELETE /api/webhooks/[id]": async () => ({ params: { id: (await webhook()).id } }),
    "POST /api/webhooks/[id]/test": async () => ({ params: { id: (await webhook()).id }, body: {} }),
    "GET /api/forges": none,
    "POST /api/forges": async () => ({ params: {}, body: forgeBody() }),
    "PUT /api/forges/[id]/token": async () => ({ params: { id: (await forge()).id }, body: { token: forgeBody().token } }),
    "DELETE /api/forges/[id]": async () => ({ params: { id: (await forge()).id } }),
    // Unsigned: a key or a cookie is no credential for a forge's delivery (domain/flights/forge-delivery.test.ts signs them).
    "POST /api/forges/[host]/webhook": async () => ({ params: { host: "github.com" }, body: { zen: "Design for failure." } }),
    "PATCH /api/forges/[id]": async () => ({ params: { id: (await forge()).id }, body: { intakeLabel: "quorum", pollPullRequests: false } }),
    "POST /api/forges/[id]/webhook-secret": async () => ({ params: { id: (await forge()).id }, body: {} }),
    "DELETE /api/forges/[id]/webhook-secret": async () => {
      const { id } = await forge();
      await A("human", "POST /api/forges/[id]/webhook-secret", { id }, {});
      return { params: { id } };
    },
    "POST /api/flight-proposals/[id]/start": async () => ({ params: { id: (await proposal("dismissed")).id }, body: { goal: uniq("goal") } }),
    "POST /api/flight-proposals/[id]/dismiss": async () => ({ params: { id: (await proposal("waiting")).id }, body: {} }),
    // issue 33: A2A, and outside agents on the Bill
    "POST /api/a2a": async () => ({ params: {}, body: { jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: (await readyTask()).id } } }),
    "GET /api/a2a": none,
    "GET /.well-known/agent-card.json": none,
    "GET /metrics": none,
    "POST /api/usage": async () => ({ params: {}, body: { model: "claude-sonnet-4-5", inputTokens: 1200, outputTokens: 300, taskId: (await readyTask()).id } }),
  };
}

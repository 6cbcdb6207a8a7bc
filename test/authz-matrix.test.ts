// The authorization matrix (issue 9): every endpoint under app/api × {anonymous, agent, another agent,
// human}, each cell's status written below and checked exhaustively against a fresh resource. `agent`
// owns what the endpoint acts on (task, commitment, reservation, digest); `human` approves the tasks.
// Cross-site POSTs by cookie with a foreign Origin are refused. A new route fails this test until it has a row.
// Keys are rotated and revoked by humans only, on a fresh agent per cell; signing out ends a fresh human's session
// (an agent's key has none: 403). Notable cells: the approver (the human) may not claim its own task; only the owner or a human says what a
// commitment waits on; only a human funds a top-level budget; a run is stopped by a human or its own agent; only a human, the creator or the approver cancels or reopens a task (never its owner
// alone: no quiet burials); MCP takes bearer keys only, so a cookie is 401 there; humans may cast ballots.
import { beforeAll, describe, expect, it } from "vitest";
import { discoverEndpoints, makeTeam, send, setups, WHO, type Endpoint, type Team, type Who } from "./api-catalog";

/**            endpoint                                anonymous agent other human */
// biome-ignore format: the matrix is a table read by column
const MATRIX: Record<string, [number, number, number, number]> = {
  "GET /api/agents":                                   [401, 200, 200, 200],
  "POST /api/agents":                                  [401, 403, 403, 201],
  "GET /api/agents/[id]":                              [401, 200, 200, 200],
  "GET /api/agents/[id]/digest":                       [401, 200, 403, 200],
  "POST /api/agents/[id]/digest":                      [401, 200, 403, 200],
  "GET /api/agents/[id]/runs":                         [401, 200, 200, 200],
  "POST /api/agents/[id]/keys":                        [401, 403, 403, 201],
  "DELETE /api/agents/[id]/keys":                      [401, 403, 403, 204],
  "GET /api/invitations":                              [401, 403, 403, 200],
  "POST /api/invitations":                             [401, 403, 403, 201],
  "DELETE /api/invitations/[id]":                      [401, 403, 403, 204],
  "POST /api/invitations/look":                        [200, 200, 200, 200],
  "POST /api/invitations/accept":                      [200, 200, 200, 200],
  "GET /api/humans":                                   [401, 403, 403, 200],
  "DELETE /api/humans/[id]":                           [401, 403, 403, 204],
  "POST /api/agents/[id]/flight-allowance":            [401, 403, 403, 200],
  "GET /api/bill":                                     [401, 200, 200, 200],
  "GET /api/bill/runs":                                [401, 200, 200, 200],
  "GET /api/bill/series":                              [401, 200, 200, 200],
  "GET /api/bill/tasks":                               [401, 200, 200, 200],
  "POST /api/budgets/[id]/allowance":                  [401, 403, 403, 200],
  "GET /api/commitments":                              [401, 200, 200, 200],
  "POST /api/commitments":                             [401, 201, 201, 201],
  "GET /api/commitments/graph":                        [401, 200, 200, 200],
  "POST /api/commitments/[id]/confirm":                [401, 200, 403, 403],
  "POST /api/commitments/[id]/fulfil":                 [401, 200, 403, 403],
  "POST /api/commitments/[id]/withdraw":               [401, 200, 403, 403],
  "POST /api/commitments/[id]/dependencies":           [401, 201, 403, 201],
  "GET /api/decisions":                                [401, 200, 200, 200],
  "POST /api/decisions":                               [401, 201, 201, 201],
  "GET /api/decisions/[id]":                           [401, 200, 200, 200],
  "POST /api/decisions/[id]/ballots":                  [401, 201, 201, 201],
  "POST /api/decisions/[id]/resolve":                  [401, 403, 403, 409],
  "GET /api/events":                                   [401, 200, 200, 200],
  "GET /api/diagnosis":                                [401, 200, 200, 200],
  "GET /api/health":                                   [200, 200, 200, 200],
  "GET /metrics":                                      [401, 403, 403, 200],
  "GET /api/journal":                                  [401, 200, 200, 200],
  "GET /api/journal/archives":                         [401, 200, 200, 200],
  "GET /api/journal/export":                           [401, 200, 200, 200],
  "GET /api/journal/runs/[id]":                        [401, 404, 404, 404],
  "GET /api/journal/runs/[id]/replay":                 [401, 404, 404, 404],
  "POST /api/journal/runs/[id]/fork":                  [401, 403, 403, 409],
  "GET /api/journal/tasks/[id]/audit":                 [401, 200, 200, 200],
  "GET /api/journal/tasks/[id]/thread":                [401, 200, 200, 200],
  "GET /api/experiments":                              [401, 200, 200, 200],
  "GET /api/lessons":                                  [401, 200, 200, 200],
  "POST /api/lessons":                                 [401, 201, 201, 201],
  "GET /api/mcp":                                      [405, 405, 405, 405],
  "POST /api/mcp":                                     [401, 200, 200, 401],
  "DELETE /api/mcp":                                   [405, 405, 405, 405],
  "GET /api/openapi.json":                             [200, 200, 200, 200],
  "GET /api/me":                                       [401, 200, 200, 200],
  "GET /api/me/waiting":                               [401, 200, 200, 200],
  "GET /api/team":                                     [401, 200, 200, 200],
  "GET /api/principles":                               [401, 200, 200, 200],
  "POST /api/principles":                              [401, 403, 403, 201],
  "POST /api/principles/[id]/pin":                     [401, 403, 403, 200],
  "POST /api/principles/[id]/unpin":                   [401, 403, 403, 200],
  "GET /api/reservations":                             [401, 200, 200, 200],
  "POST /api/reservations":                            [401, 201, 201, 201],
  "POST /api/reservations/check":                      [401, 200, 200, 200],
  "POST /api/reservations/[id]/release":               [401, 200, 403, 403],
  "POST /api/reservations/[id]/renew":                 [401, 200, 403, 403],
  "POST /api/reservations/[id]/force-release":         [401, 403, 403, 200],
  "GET /api/rooms":                                    [401, 200, 200, 200],
  "POST /api/runs/[id]/stop":                          [401, 202, 403, 202],
  "POST /api/runs/[id]/resume":                        [401, 403, 403, 202],
  "POST /api/session/sign-out":                        [401, 403, 403, 204],
  "POST /api/rooms":                                   [401, 403, 403, 201],
  "GET /api/rooms/[room]/cursor":                      [401, 200, 200, 200],
  "POST /api/rooms/[room]/cursor":                     [401, 200, 200, 200],
  "GET /api/rooms/[room]/gates":                       [401, 200, 200, 200],
  "GET /api/rooms/[room]/inbox":                       [401, 200, 200, 200],
  "GET /api/rooms/[room]/messages":                    [401, 200, 200, 200],
  "POST /api/rooms/[room]/messages":                   [401, 201, 201, 201],
  "GET /api/rooms/[room]/presence":                    [401, 200, 200, 200],
  "GET /api/stream":                                   [401, 200, 200, 200],
  "GET /api/tasks":                                    [401, 200, 200, 200],
  "POST /api/tasks":                                   [401, 201, 201, 201],
  "POST /api/tasks/claim-next":                        [401, 200, 200, 200],
  "GET /api/tasks/[id]":                               [401, 200, 200, 200],
  "PATCH /api/tasks/[id]":                             [401, 403, 403, 200],
  "POST /api/tasks/[id]/claim":                        [401, 200, 200, 403],
  "POST /api/tasks/[id]/heartbeat":                    [401, 200, 403, 403],
  "GET /api/tasks/[id]/output":                        [401, 200, 200, 200],
  "GET /api/tasks/[id]/diff":                          [401, 200, 200, 200],
  "POST /api/tasks/[id]/output":                       [401, 200, 403, 403],
  "POST /api/tasks/[id]/submit":                       [401, 200, 403, 403],
  "POST /api/tasks/[id]/review":                       [401, 403, 403, 200],
  "POST /api/tasks/[id]/comments":                     [401, 403, 403, 201],
  "DELETE /api/tasks/[id]/comments/[commentId]":       [401, 403, 403, 204],
  "POST /api/tasks/[id]/reopen":                       [401, 403, 403, 200],
  "POST /api/tasks/[id]/cancel":                       [401, 403, 403, 200],
  "POST /api/flights/[id]/retry":                      [401, 403, 403, 200],
  "POST /api/flights/[id]/merge":                      [401, 403, 403, 200],
  "POST /api/flights/[id]/close":                      [401, 403, 403, 200],
  "POST /api/diagnosis/answers":                       [401, 403, 403, 200],
  "GET /api/flights":                                  [401, 200, 200, 200],
  "POST /api/flights":                                 [401, 403, 403, 201],
  "GET /api/flights/inspect":                          [401, 403, 403, 200],
  "GET /api/flights/[id]":                             [401, 200, 200, 200],
  "GET /api/webhooks":                                 [401, 403, 403, 200],
  "POST /api/webhooks":                                [401, 403, 403, 201],
  "DELETE /api/webhooks/[id]":                         [401, 403, 403, 204],
  "POST /api/webhooks/[id]/test":                      [401, 403, 403, 202],
  // issue 46: forge hosts and their tokens are the humans' to keep
  "GET /api/forges":                                   [401, 403, 403, 200],
  "POST /api/forges":                                  [401, 403, 403, 201],
  "PUT /api/forges/[id]/token":                        [401, 403, 403, 200],
  "DELETE /api/forges/[id]":                           [401, 403, 403, 204],
  "PATCH /api/forges/[id]":                            [401, 403, 403, 200],
  "POST /api/forges/[id]/webhook-secret":              [401, 403, 403, 201],
  "DELETE /api/forges/[id]/webhook-secret":            [401, 403, 403, 200],
  "POST /api/forges/[host]/webhook":                   [401, 401, 401, 401],
  // issues labelled for the team: humans decide them. Starting one already dismissed is 409 for the human, who is past
  // authorization (a start that launches is flown in domain/flights/proposals.test.ts, against a forge on loopback)
  "POST /api/flight-proposals/[id]/start":             [401, 403, 403, 409],
  "POST /api/flight-proposals/[id]/dismiss":           [401, 403, 403, 200],
  // issue 33: A2A takes bearer keys only (a cookie is 401, as MCP's); its card is public. Outside agents report
  // their own model calls; humans have none to report
  "POST /api/a2a":                                     [401, 200, 200, 401],
  "GET /api/a2a":                                      [405, 405, 405, 405],
  "GET /.well-known/agent-card.json":                  [200, 200, 200, 200],
  "POST /api/usage":                                   [401, 201, 201, 403],
};

let team: Team;
let endpoints: Endpoint[];
let setup: ReturnType<typeof setups>;

beforeAll(async () => {
  endpoints = await discoverEndpoints();
  team = await makeTeam();
  setup = setups(team, new Map(endpoints.map((e) => [e.key, e])));
});

describe("authorization matrix", () => {
  it("has a row and a fixture for every route handler, and none for routes that are gone", () => {
    const found = endpoints.map((e) => e.key).sort();
    expect(
      found.filter((k) => !(k in MATRIX)),
      "endpoints without a row in MATRIX",
    ).toEqual([]);
    expect(
      found.filter((k) => !(k in setup)),
      "endpoints without a fixture in test/api-catalog.ts",
    ).toEqual([]);
    expect(
      Object.keys(MATRIX).filter((k) => !found.includes(k)),
      "rows for endpoints that no longer exist",
    ).toEqual([]);
  });

  it("answers every cell with the status in the table, with a JSON error on every refusal", async () => {
    const observed: Record<string, number[]> = {};
    const mismatches: string[] = [];
    const runEndpoint = async (endpoint: Endpoint) => {
      observed[endpoint.key] = [];
      // Reads share one fixture; every write gets a fresh one per cell, so cells never depend on each other.
      const shared = endpoint.method === "GET" ? await setup[endpoint.key]() : null;
      for (const [i, who] of WHO.entries()) {
        const fixture = shared ?? (await setup[endpoint.key]());
        const reply = await send(team, endpoint, { who: who as Who, params: fixture.params, body: fixture.body, query: fixture.query, cookie: fixture.cookie });
        observed[endpoint.key][i] = reply.status;
        const expected = MATRIX[endpoint.key]?.[i];
        if (reply.status !== expected) mismatches.push(`${endpoint.key} as ${who}: expected ${expected}, got ${reply.status} ${JSON.stringify(reply.body)?.slice(0, 200)}`);
        if (reply.status >= 400 && reply.status !== 405) {
          const body = reply.body as { error?: unknown; message?: unknown };
          // REST's { error, message }, or (A2A's JSON-RPC) { jsonrpc, error: { code, message } }.
          const rest = typeof body?.error === "string" && typeof body?.message === "string";
          const rpc = typeof (body?.error as { message?: unknown } | undefined)?.message === "string";
          if (!rest && !rpc) mismatches.push(`${endpoint.key} as ${who}: ${reply.status} without { error, message }`);
        }
      }
    };
    // claim-next takes any ready task, and a reservation fixture releases the agent's earlier grants (it may
    // hold 8): these run one at a time, after the others' fixtures are settled.
    const runsAlone = (e: Endpoint) => e.key === "POST /api/tasks/claim-next" || e.route.startsWith("/api/reservations");
    const queue = endpoints.filter((e) => !runsAlone(e));
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let e = queue.shift(); e; e = queue.shift()) await runEndpoint(e);
      }),
    );
    for (const e of endpoints.filter(runsAlone)) await runEndpoint(e);
    if (process.env.AUTHZ_PRINT) {
      for (const [k, v] of Object.entries(observed)) console.log(`  ${JSON.stringify(k)}:${" ".repeat(Math.max(1, 50 - k.length))}[${v.join(", ")}],`);
    }
    const cells = Object.values(observed).flat();
    // One line for `npm run chaos`'s tally.
    console.log(
      JSON.stringify({
        authz: { endpoints: Object.keys(observed).length, cells: cells.length, mismatches: mismatches.length, fiveHundreds: cells.filter((s) => s >= 500).length },
      }),
    );
    expect(mismatches).toEqual([]);
    expect(
      cells.filter((s) => s >= 500),
      "a 5xx in the matrix",
    ).toEqual([]);
  }, 120_000);

  /** Public POSTs, for a person not signed in yet; `look` only reads (a POST keeps the token out of URLs and logs), and another site cannot read its answer. */
  const PUBLIC_POSTS = new Set(["POST /api/invitations/look", "POST /api/invitations/accept"]);
  const PUBLIC_READS = new Set(["POST /api/invitations/look"]);
  /** A forge's deliveries: their signature is the credential, so a cookie carries nothing there and every unsigned POST is 401. */
  const SIGNED = new Set(["POST /api/forges/[host]/webhook"]);

  it("refuses cookie-authenticated POSTs from a foreign Origin (and non-JSON ones), changing nothing", async () => {
    const { getDb } = await import("../db/client");
    const { sql } = await import("drizzle-orm");
    const maxId = async () => Number((await getDb().execute(sql`select coalesce(max(id), 0) as m from events`))[0].m);
    const refused: string[] = [];
    // MCP and A2A take bearer keys only: a cookie never acts there (the matrix's 401), whatever the Origin.
    for (const endpoint of endpoints.filter((e) => e.method === "POST" && e.route !== "/api/mcp" && e.route !== "/api/a2a")) {
      const fixture = await setup[endpoint.key]();
      const before = await maxId();
      const { cookie } = fixture;
      const foreign = await send(team, endpoint, { who: "human", params: fixture.params, body: fixture.body, origin: "https://evil.example", cookie });
      const form = await send(team, endpoint, { who: "human", params: fixture.params, body: "a=1", raw: true, contentType: "application/x-www-form-urlencoded", cookie });
      const unsigned = SIGNED.has(endpoint.key) && foreign.status === 401;
      if (foreign.status !== 403 && !PUBLIC_READS.has(endpoint.key) && !unsigned) refused.push(`${endpoint.key}: foreign Origin → ${foreign.status}`);
      // A public route takes no cookie: a form's body is not the JSON it reads (400), and nothing is done.
      const formRefused =
        form.status === 403 || form.status === 415 || (form.status === 400 && PUBLIC_POSTS.has(endpoint.key)) || (form.status === 401 && SIGNED.has(endpoint.key));
      if (!formRefused) refused.push(`${endpoint.key}: form post → ${form.status}`);
      if ((await maxId()) !== before) refused.push(`${endpoint.key}: a refused cross-site request wrote to the journal`);
      // The same request from our own origin passes the check (whatever the rule says next).
      const same = await send(team, endpoint, { who: "human", params: fixture.params, body: fixture.body, origin: "http://localhost", cookie });
      if (same.status === 403 && /cross-site/.test(JSON.stringify(same.body))) refused.push(`${endpoint.key}: same-origin refused as cross-site`);
    }
    expect(refused).toEqual([]);
  }, 120_000);
});

// Parity is a rule: every agent-facing REST endpoint (its declaration in surfaces/http/routes/) is also an MCP tool
// (its `tool` face; surfaces/http/tools.ts derives the tool), or says here why an agent has no use for it.
import { describe, expect, it } from "vitest";
import { ROUTES } from "../http/routes";
import { toolsOf } from "../http/tools";

const ALL_TOOLS = toolsOf(ROUTES);

/** REST operations no agent tool mirrors, each with the reason. A new route must be added here or get a tool. */
const EXCLUDED: Record<string, string> = {
  "POST /api/agents": "human-only: registers an agent and shows its key once",
  "POST /api/agents/:id/keys": "human-only: rotates an agent's key (agents get 403); an agent never re-keys itself",
  "DELETE /api/agents/:id/keys": "human-only: revokes an agent's keys (agents get 403)",
  "POST /api/agents/:id/flight-allowance": "human-only: allows an agent to start flights (agents get 403); an agent never raises its own",
  "POST /api/session/sign-out": "a browser's session cookie; MCP takes keys only, and a key is not a session (agents get 403)",
  "POST /api/rooms": "human-only: creates a room",
  "GET /api/rooms/:room/gates": "the Room page's strip of everyone's refusals; an agent gets its own as tool errors",
  "POST /api/decisions/:id/resolve": "human-only: resolves an escalation (agents get 403)",
  "POST /api/diagnosis/answers": "human-only: a human's answer to a finding (agents get 403); an agent reads findings with diagnose",
  "POST /api/principles": "human-only: pins a principle",
  "POST /api/principles/:id/pin": "human-only: pins a promoted lesson",
  "POST /api/principles/:id/unpin": "human-only: unpins a principle",
  "POST /api/reservations/:id/force-release": "human-only: ends someone else's reservation and tells its holder",
  "GET /api/webhooks": "human-only: the Settings page's webhook endpoints and deliveries (agents get 403)",
  "POST /api/webhooks": "human-only: registers a webhook endpoint and shows its secret once (agents get 403)",
  "DELETE /api/webhooks/:id": "human-only: removes a webhook endpoint (agents get 403)",
  "POST /api/webhooks/:id/test": "human-only: sends a test delivery to a webhook endpoint (agents get 403)",
  "GET /api/forges": "human-only: the Settings page's forge hosts; forge credentials are the hub's, never an agent's (agents get 403)",
  "POST /api/forges": "human-only: connects a forge host with its token (agents get 403)",
  "PUT /api/forges/:id/token": "human-only: replaces a forge's token (agents get 403)",
  "DELETE /api/forges/:id": "human-only: removes a forge host and its token (agents get 403)",
  "PATCH /api/forges/:id": "human-only: a forge's intake label and polling (agents get 403)",
  "POST /api/forges/:id/webhook-secret": "human-only: generates a forge's webhook secret and shows it once (agents get 403)",
  "DELETE /api/forges/:id/webhook-secret": "human-only: removes a forge's webhook secret (agents get 403)",
  "POST /api/forges/:host/webhook": "a forge's webhook delivery, signed with the host's secret: the forge's to call, not an agent's",
  "POST /api/flight-proposals/:id/start": "human-only: Quorum proposes flights from labelled issues, and only a human starts one (agents get 403)",
  "POST /api/flight-proposals/:id/dismiss": "human-only: a proposed flight is a human's to turn down (agents get 403)",
  "GET /api/flights": "the humans' view of the built-in team's flights; agents see the same work as tasks on the board (quorum://board)",
  "GET /api/flights/:id": "the humans' view of one flight; agents read its tasks on the board",
  "POST /api/runs/:id/resume": "human-only: a pause (a spent budget, an operator's stop) is a human's to end (agents get 403)",
  "GET /api/flights/inspect": "human-only: the New flight dialog's look at a folder on this machine (agents get 403)",
  "POST /api/flights/:id/retry": "human-only: the goal's human retries a flight handed back after its model failed (agents get 403)",
  "POST /api/tasks/:id/comments": "line comments are the humans' review of a diff in the browser; an agent reviewer gives its reasons in review_task's verdict",
  "DELETE /api/tasks/:id/comments/:commentId": "withdraws a pending line comment, which agents do not write over MCP (POST /api/tasks/:id/comments)",
  "GET /api/invitations": "human-only: the Settings page's open invitations (agents get 403)",
  "POST /api/invitations": "human-only: humans invite humans (agents get 403)",
  "DELETE /api/invitations/:id": "human-only: revokes an invitation (agents get 403)",
  "POST /api/invitations/look": "an invitation's page, for a person not signed in yet",
  "POST /api/invitations/accept": "an invitation's page, for a person not signed in yet: it opens a browser session",
  "GET /api/humans": "human-only: the Settings page's People (agents get 403)",
  "DELETE /api/humans/:id": "human-only: humans remove humans (agents get 403)",
  "POST /api/flights/:id/merge": "human-only: the goal's human merges an accepted flight into the user's repository (agents get 403)",
  "POST /api/flights/:id/close": "human-only: the goal's human ends a flight without merging (agents get 403)",
  "GET /api/bill": "the humans' spend view; budgets bind Quorum's own workers, which call domain/ directly",
  "GET /api/bill/runs": "the bill explorer's run table (humans)",
  "GET /api/bill/series": "the bill page's chart (humans)",
  "GET /api/bill/tasks": "the bill explorer's task table (humans)",
  "GET /api/journal": "the journal explorer and audit (humans); agents follow news with wait_for_events",
  "GET /api/journal/archives": "where the journal explorer's views stop at an archived month (humans); archiving is an operator's command",
  "GET /api/journal/export": "the journal explorer's JSON Lines download (humans)",
  "GET /api/journal/runs/:id": "the journal explorer's run timeline (humans)",
  "GET /api/journal/runs/:id/replay": "the journal explorer's replay check of a built-in worker's run (humans)",
  "GET /api/journal/tasks/:id/audit": "the journal explorer's audit view (humans); an agent reads reviews with get_task",
  "GET /api/journal/tasks/:id/thread": "the journal explorer's thread view (humans); an agent reads the thread with get_task",
  "GET /api/agents/:id": "the Agents page's detail of one agent: spend, budgets, gate log (humans)",
  "GET /api/agents/:id/runs": "the Agents page's run history of a built-in worker (humans)",
  "POST /api/runs/:id/stop": "the operator's stop of a built-in worker's run (runs are Quorum's own; an outside agent has none)",
  "POST /api/budgets/:id/allowance": "humans fund Quorum's own workers; budgets bind runs, and outside agents have no runs",
  "GET /api/stream": "Server-Sent Events for browsers; an MCP call cannot hold a stream, wait_for_events is its bounded form",
  "GET /api/tasks/:id/diff": "the review's diff for humans (files and hunks read from the flight's git); the built-in reviewer reads git itself",
  "GET /api/team": "the Room's note on how the built-in team thinks (humans); an agent is told its own model by its runtime",
  "GET /api/me/waiting": "the human's desk (the top strip's count and inbox); an agent finds its reviews with claim-next and its requests in its inbox",
  "POST /api/journal/runs/:id/fork": "human-only: the journal explorer's fork of a run (agents get 403); it runs tools on this machine",
  "GET /api/experiments": "the Experiments page's saved tables (humans); `quorum experiment` runs them on a scratch database, never the hub's",
  "GET /api/openapi.json": "the REST surface's own description (public); MCP clients list tools instead",
  "GET /api/health": "unauthenticated liveness probe for operators",
  "POST /api/mcp": "the MCP transport itself",
  "POST /api/a2a": "A2A's transport (other agent frameworks): the same server functions as REST's task and flight routes, which have their tools",
  "GET /api/a2a": "A2A's transport itself (405: JSON-RPC is POSTed)",
  "GET /api/mcp": "the MCP transport itself (405 in stateless mode)",
  "DELETE /api/mcp": "the MCP transport itself (405 in stateless mode)",
};

/** POSTs that only read (the question carries a list too long for a URL). */
const READING_POSTS = new Set(["POST /api/reservations/check"]);

/** Each declared /api endpoint as MCP names REST operations: `POST /api/tasks/:id/claim`. */
function operations(): string[] {
  return ROUTES.filter((spec) => spec.path.startsWith("/api/")).map((spec) => `${spec.method.toUpperCase()} ${spec.path.replace(/\{(\w+)\}/g, ":$1")}`);
}

describe("REST ↔ MCP parity", () => {
  it("has one tool per agent-facing REST operation, and no tool without one", async () => {
    const ops = operations();
    const keys = new Set(ops);
    const agentFacing = ops.filter((key) => !(key in EXCLUDED)).sort();
    const mirrored = ALL_TOOLS.map((t) => t.rest).sort();
    expect(mirrored).toEqual([...new Set(mirrored)]); // one tool per operation
    expect(mirrored).toEqual(agentFacing);
    // An exclusion for a route that no longer exists is stale: it would hide a future route of that name.
    expect(Object.keys(EXCLUDED).filter((key) => !keys.has(key))).toEqual([]);
  });

  it("names one tool parameter per path parameter, never clashing with the body", () => {
    for (const tool of ALL_TOOLS) {
      const pathParams = tool.rest.match(/:\w+/g) ?? [];
      const paramKeys = Object.keys(tool.params?.shape ?? {});
      expect(paramKeys.length, tool.name).toBe(pathParams.length);
      const bodyKeys = Object.keys((tool.input as { shape?: object } | undefined)?.shape ?? {});
      expect(
        paramKeys.filter((k) => bodyKeys.includes(k)),
        tool.name,
      ).toEqual([]);
    }
  });

  it("marks reads read-only and writes not, so clients can auto-approve reads", () => {
    for (const tool of ALL_TOOLS) {
      const reads = tool.rest.startsWith("GET ") || READING_POSTS.has(tool.rest);
      expect(tool.annotations.readOnlyHint, tool.name).toBe(reads);
      if (reads) expect(tool.annotations.destructiveHint, tool.name).toBe(false);
    }
  });
});

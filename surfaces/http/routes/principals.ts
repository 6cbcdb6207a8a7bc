// Who is calling, the roster, agents and their keys, browser sessions. An agent's runs and digest are
// tagged with their institutions (runs, rooms) but sit here, under the agent's path, in the document's order.
import { clearedSessionCookie, secureCookies, sessionTokenOf } from "@/domain/principals/session-cookie";
import { listWaiting } from "@/domain/desk/waiting";
import { listRoster } from "@/domain/roster/roster";
import { getAgentDetail, requireAgent } from "@/domain/roster/agent-detail";
import { hubUrlSetting, priceSettings } from "@/domain/config";
import { z } from "zod";
import { flushAgentDigest, flushDigestInput, getAgentDigest } from "@/domain/rooms/agent-digest";
import { agentRunsQuery, listBillRuns } from "@/domain/bill/recent";
import { createAgent, createAgentInput } from "@/domain/principals/create-principal";
import { setFlightAllowance, setFlightAllowanceInput } from "@/domain/flights/agent-allowance";
import { issuedKeyView, revokeAgentKeys, rotateAgentKey, rotateKeyInput } from "@/domain/principals/keys";
import { endSession, signOutInput } from "@/domain/principals/sign-out";
import * as v from "../views";
import { uuidId, ok, created, noContent, type RouteSpec, TAGS, endpoint } from "./route-spec";
import * as out from "@/surfaces/mcp/outputs";
import { READ, WRITE } from "@/surfaces/mcp/tool";

const idOrName = z.strictObject({ id: z.string().min(1).max(64).describe("the agent's id or name") });

export const PRINCIPAL_ROUTES: RouteSpec[] = [
  endpoint({
    method: "get",
    path: "/api/me",
    tag: TAGS.principals,
    summary: "Who you are",
    access: "principal",
    answers: ok(v.principal),
    refusals: [],
    tool: {
      name: "whoami",
      description: "Who this key acts as.",
      hints: READ,
      output: out.principalOut,
    },
    run: async ({ caller }) => caller,
  }),
  endpoint({
    method: "get",
    path: "/api/me/waiting",
    tag: TAGS.principals,
    summary: "What waits for your decision: escalations, reviews you approve, requests addressed to you",
    access: "principal",
    answers: ok(v.anyObject),
    refusals: [],
    run: ({ ctx, caller }) => listWaiting(ctx.db, caller),
  }),
  endpoint({
    method: "get",
    path: "/api/agents",
    tag: TAGS.principals,
    summary: "The roster with presence (agents also with lease, load, success rate, spend)",
    access: "principal",
    answers: ok(z.looseObject({ items: z.array(v.rosterEntry) })),
    refusals: [],
    tool: {
      name: "list_agents",
      description: "The roster: agents and humans, roles, presence; agents with load and success rate.",
      hints: READ,
      output: out.page(out.rosterOut),
    },
    run: async ({ ctx }) => ({ items: await listRoster(ctx.db, ctx.clock, priceSettings().prices) }),
  }),
  endpoint({
    method: "post",
    path: "/api/agents",
    tag: TAGS.principals,
    summary: "Register an agent (humans); its key is shown once",
    access: "principal",
    body: createAgentInput,
    answers: created(v.registeredAgent),
    refusals: [403, 409],
    otherConflicts: ["name_taken"],
    run: async ({ ctx, caller, body }) => {
      const agent = await createAgent(ctx.db, caller, body, ctx.clock);
      return { id: agent.id, name: agent.name, role: agent.role, key: agent.key };
    },
  }),
  endpoint({
    method: "get",
    path: "/api/agents/{id}",
    tag: TAGS.principals,
    summary: "One agent: presence, lease, load, success rate, spend, budgets, gate rejections",
    access: "principal",
    params: uuidId,
    answers: ok(v.anyObject),
    refusals: [404],
    run: async ({ ctx, caller, params }) => {
      const { id } = params;
      return await getAgentDetail(ctx.db, ctx.clock, priceSettings().prices, id, caller);
    },
  }),
  endpoint({
    method: "get",
    path: "/api/agents/{id}/runs",
    tag: TAGS.runs,
    summary: "The agent's runs, newest first, with status, tokens and cost",
    access: "principal",
    params: uuidId,
    query: agentRunsQuery,
    answers: ok(v.page(v.runBill)),
    refusals: [404],
    run: async ({ ctx, params, query }) => {
      const { id } = params;
      await requireAgent(ctx.db, id);
      return await listBillRuns(ctx.db, priceSettings().prices, { ...query, agent: id });
    },
  }),
  endpoint({
    method: "get",
    path: "/api/agents/{id}/digest",
    tag: TAGS.rooms,
    summary: "What the agent's focus-window digest holds (the agent itself, or a human)",
    access: "principal",
    params: uuidId,
    answers: ok(v.digest),
    refusals: [403, 404],
    tool: {
      name: "read_digest",
      description: "Room messages held for you while you focus on a task.",
      hints: READ,
      output: out.digestOut,
      args: { id: "agentId" },
      omitted: { id: (caller) => caller.id },
    },
    run: async ({ ctx, caller, params }) => {
      const { id } = params;
      return await getAgentDigest(ctx.db, caller, id);
    },
  }),
  endpoint({
    method: "post",
    path: "/api/agents/{id}/digest",
    tag: TAGS.rooms,
    summary: "Flush the digest: deliver what it holds as one batch",
    access: "principal",
    params: uuidId,
    body: flushDigestInput,
    answers: ok(v.flushed),
    refusals: [403, 404],
    tool: {
      name: "flush_digest",
      description: "Deliver your held digest now as one batch; the focus window stays open.",
      hints: WRITE,
      output: out.flushOut,
      args: { id: "agentId" },
      omitted: { id: (caller) => caller.id },
    },
    run: async ({ ctx, caller, params }) => {
      const { id } = params;
      return await flushAgentDigest(ctx.db, caller, id, ctx.clock);
    },
  }),
  endpoint({
    method: "post",
    path: "/api/agents/{id}/keys",
    tag: TAGS.principals,
    summary: "Rotate the agent's key (humans): a new one, shown once; the old ones refused at once",
    access: "principal",
    params: idOrName,
    body: rotateKeyInput,
    answers: created(v.issuedKey),
    refusals: [403, 404],
    run: async ({ ctx, caller, params }) => {
      const { id } = params;
      return issuedKeyView(await rotateAgentKey(ctx.db, caller, id, ctx.clock));
    },
  }),
  endpoint({
    method: "delete",
    path: "/api/agents/{id}/keys",
    tag: TAGS.principals,
    summary: "Revoke every key of the agent (humans)",
    access: "principal",
    params: idOrName,
    answers: [noContent("Revoked")],
    refusals: [403, 404],
    run: async ({ ctx, caller, params }) => {
      const { id } = params;
      await revokeAgentKeys(ctx.db, caller, id, ctx.clock);
      return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
    },
  }),
  endpoint({
    method: "post",
    path: "/api/agents/{id}/flight-allowance",
    tag: TAGS.principals,
    summary: "Allow the agent to start flights (humans): the tokens its flights may take in all; 0 stops it",
    access: "principal",
    params: idOrName,
    body: setFlightAllowanceInput,
    answers: ok(v.flightAllowance),
    refusals: [403, 404],
    run: async ({ ctx, caller, params, body }) => {
      const { id } = params;
      return await setFlightAllowance(ctx.db, caller, id, body, ctx.clock);
    },
  }),
  endpoint({
    method: "post",
    path: "/api/session/sign-out",
    tag: TAGS.principals,
    summary: "End this browser session and clear its cookie (a key is not a session: 403)",
    access: "principal",
    body: signOutInput,
    answers: [noContent("Signed out")],
    refusals: [403],
    run: async ({ ctx, caller, request }) => {
      await endSession(ctx.db, caller, sessionTokenOf(request.headers.get("cookie")), ctx.clock);
      return new Response(null, { status: 204, headers: { "Set-Cookie": clearedSessionCookie(secureCookies(hubUrlSetting())), "Cache-Control": "no-store" } });
    },
  }),
];

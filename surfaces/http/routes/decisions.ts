// Decisions: ballots with reasoning, quorum and timeboxes, escalations resolved by humans.
import { readDecisionView } from "@/domain/decisions/decision-view";
import { castBallot, castBallotInput } from "@/domain/decisions/cast-ballot";
import { listDecisions, listDecisionsQuery } from "@/domain/decisions/list-decisions";
import { openDecision, openDecisionInput } from "@/domain/decisions/open-decision";
import { resolveEscalation, resolveEscalationInput } from "@/domain/decisions/resolve-escalation";
import * as v from "../views";
import { uuidId, ok, created, type RouteSpec, TAGS, endpoint } from "./route-spec";
import * as out from "@/surfaces/mcp/outputs";
import { READ, WRITE } from "@/surfaces/mcp/tool";

export const DECISION_ROUTES: RouteSpec[] = [
  endpoint({
    method: "get",
    path: "/api/decisions",
    tag: TAGS.decisions,
    summary: "Decisions",
    access: "principal",
    query: listDecisionsQuery,
    answers: ok(v.page(v.decision)),
    refusals: [],
    tool: {
      name: "list_decisions",
      description: "Decisions, newest first, by status (open, closed, escalated, resolved, defaulted).",
      hints: READ,
      output: out.page(out.decisionOut),
    },
    run: async ({ ctx, query }) => await listDecisions(ctx.db, query),
  }),
  endpoint({
    method: "post",
    path: "/api/decisions",
    tag: TAGS.decisions,
    summary: "Open a decision with options, a default, a quorum and timeboxes",
    access: "principal",
    body: openDecisionInput,
    answers: created(v.decision),
    refusals: [403],
    tool: {
      name: "open_decision",
      description: "Open a vote: question, ≥2 options, a default, the consequence of no decision, quorum and timeboxes.",
      hints: WRITE,
      output: out.decisionOut,
    },
    run: async ({ ctx, caller, body }) => await openDecision(ctx.db, caller, body, ctx.clock),
  }),
  endpoint({
    method: "get",
    path: "/api/decisions/{id}",
    tag: TAGS.decisions,
    summary: "One decision with its tally and ballots",
    access: "principal",
    params: uuidId,
    answers: ok(v.decision),
    refusals: [404],
    tool: {
      name: "get_decision",
      description: "One decision with its tally and every ballot's reasoning.",
      hints: READ,
      output: out.decisionOut,
      args: { id: "decisionId" },
    },
    run: async ({ ctx, params }) => {
      const { id } = params;
      return await readDecisionView(ctx.db, id);
    },
  }),
  endpoint({
    method: "post",
    path: "/api/decisions/{id}/ballots",
    tag: TAGS.decisions,
    summary: "Cast your one ballot, with reasoning",
    access: "principal",
    params: uuidId,
    body: castBallotInput,
    answers: created(v.ballot),
    refusals: [403, 404, 409],
    otherConflicts: ["duplicate", "wrong_status", "timebox_expired"],
    tool: {
      name: "cast_ballot",
      description: "Cast your one ballot on an open decision: an option and your reasoning.",
      hints: WRITE,
      output: out.ballotOut,
      args: { id: "decisionId" },
    },
    run: async ({ ctx, caller, params, body }) => {
      const { id } = params;
      return await castBallot(ctx.db, caller, id, body, ctx.clock);
    },
  }),
  endpoint({
    method: "post",
    path: "/api/decisions/{id}/resolve",
    tag: TAGS.decisions,
    summary: "Resolve an escalated decision (humans)",
    access: "principal",
    params: uuidId,
    body: resolveEscalationInput,
    answers: ok(v.decision),
    refusals: [403, 404, 409],
    otherConflicts: ["wrong_status", "timebox_expired"],
    run: async ({ ctx, caller, params, body }) => {
      const { id } = params;
      return await resolveEscalation(ctx.db, caller, id, body, ctx.clock);
    },
  }),
];

// Decisions: ballots with reasoning, quorum and timeboxes, escalations resolved by humans.
import { castBallotInput } from "@/server/decisions/cast-ballot";
import { listDecisionsQuery } from "@/server/decisions/list-decisions";
import { openDecisionInput } from "@/server/decisions/open-decision";
import { resolveEscalationInput } from "@/server/decisions/resolve-escalation";
import * as v from "../views";
import { uuidId, ok, created, type RouteSpec, TAGS } from "./route-spec";

export const DECISION_ROUTES: RouteSpec[] = [
  {
    method: "get",
    path: "/api/decisions",
    tag: TAGS.decisions,
    summary: "Decisions",
    access: "principal",
    query: listDecisionsQuery,
    answers: ok(v.page(v.decision)),
    refusals: [],
  },
  {
    method: "post",
    path: "/api/decisions",
    tag: TAGS.decisions,
    summary: "Open a decision with options, a default, a quorum and timeboxes",
    access: "principal",
    body: openDecisionInput,
    answers: created(v.decision),
    refusals: [403],
  },
  {
    method: "get",
    path: "/api/decisions/{id}",
    tag: TAGS.decisions,
    summary: "One decision with its tally and ballots",
    access: "principal",
    params: uuidId,
    answers: ok(v.decision),
    refusals: [404],
  },
  {
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
  },
  {
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
  },
];

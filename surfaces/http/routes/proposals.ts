// Flights proposed from issues a forge labelled for the team: a human starts one (its goal as they edited it) or
// dismisses it. Both are humans' alone: Quorum proposes, people decide what the team flies.
import { dismissProposal, startProposal, startProposalInput } from "@/domain/flights/proposals";
import { z } from "zod";
import * as v from "../views";
import { created, endpoint, ok, type RouteSpec, TAGS, uuidId } from "./route-spec";

export const PROPOSAL_ROUTES: RouteSpec[] = [
  endpoint({
    method: "post",
    path: "/api/flight-proposals/{id}/start",
    tag: TAGS.runs,
    summary:
      "Start the flight proposed from a labelled issue (humans), with its goal as edited, on the issue's repository as New flight would; the flight remembers the issue. 409 `proposal_decided` once started or dismissed",
    access: "principal",
    params: uuidId,
    body: startProposalInput,
    answers: created(v.flight),
    refusals: [403, 404, 409],
    otherConflicts: ["proposal_decided", "no_team", "scripted_team"],
    run: async ({ ctx, caller, params, body }) => await startProposal(ctx.db, caller, params.id, body, ctx.clock),
  }),
  endpoint({
    method: "post",
    path: "/api/flight-proposals/{id}/dismiss",
    tag: TAGS.runs,
    summary: "Dismiss the flight proposed from a labelled issue (humans): it waits no more, and its issue is not proposed again. 409 `proposal_decided` once decided",
    access: "principal",
    params: uuidId,
    body: z.strictObject({}),
    answers: ok(v.flightProposal),
    refusals: [403, 404, 409],
    otherConflicts: ["proposal_decided"],
    run: async ({ ctx, caller, params }) => await dismissProposal(ctx.db, caller, params.id, ctx.clock),
  }),
];

// The commitment ledger: propose, confirm, fulfil, withdraw, and what waits on what.
import { loadCommitmentGraph } from "@/domain/commitments/load-graph";
import { addDependency, addDependencyInput } from "@/domain/commitments/add-dependency";
import { confirmCommitment, confirmCommitmentInput } from "@/domain/commitments/confirm";
import { fulfilCommitment, fulfilCommitmentInput } from "@/domain/commitments/fulfil";
import { listCommitments, listCommitmentsQuery } from "@/domain/commitments/list-commitments";
import { proposeCommitment, proposeCommitmentInput } from "@/domain/commitments/propose";
import { withdrawCommitment, withdrawCommitmentInput } from "@/domain/commitments/withdraw";
import { cycleError } from "../errors";
import * as v from "../views";
import { uuidId, ok, created, type RouteSpec, TAGS, endpoint } from "./route-spec";
import * as out from "@/surfaces/mcp/outputs";
import { DESTRUCTIVE, READ, WRITE } from "@/surfaces/mcp/tool";

export const COMMITMENT_ROUTES: RouteSpec[] = [
  endpoint({
    method: "get",
    path: "/api/commitments",
    tag: TAGS.commitments,
    summary: "The commitment ledger",
    access: "principal",
    query: listCommitmentsQuery,
    answers: ok(v.page(v.commitment)),
    refusals: [],
    tool: {
      name: "list_commitments",
      description: "The commitment ledger, newest first, by owner and status.",
      hints: READ,
      output: out.page(out.commitmentOut),
    },
    run: async ({ ctx, query }) => await listCommitments(ctx.db, query, ctx.clock.now()),
  }),
  endpoint({
    method: "post",
    path: "/api/commitments",
    tag: TAGS.commitments,
    summary: "Propose a commitment",
    access: "principal",
    body: proposeCommitmentInput,
    answers: created(v.commitment),
    refusals: [403, 404],
    tool: {
      name: "propose_commitment",
      description: '"I\'ll take it": a candidate commitment; it counts once you confirm it.',
      hints: WRITE,
      output: out.commitmentOut,
    },
    run: async ({ ctx, caller, body }) => await proposeCommitment(ctx.db, caller, body, ctx.clock),
  }),
  endpoint({
    method: "get",
    path: "/api/commitments/graph",
    tag: TAGS.commitments,
    summary: "What waits on what, with the critical path",
    access: "principal",
    answers: ok(v.commitmentGraph),
    refusals: [],
    tool: {
      name: "commitment_graph",
      description: "Confirmed commitments, their dependency edges and the critical path.",
      hints: READ,
      output: out.graphOut,
    },
    run: async ({ ctx }) => await loadCommitmentGraph(ctx.db, ctx.clock.now()),
  }),
  endpoint({
    method: "post",
    path: "/api/commitments/{id}/confirm",
    tag: TAGS.commitments,
    summary: "Confirm your candidate commitment",
    access: "principal",
    params: uuidId,
    body: confirmCommitmentInput,
    answers: ok(v.commitment),
    refusals: [403, 404, 409],
    otherConflicts: ["wrong_status"],
    tool: {
      name: "confirm_commitment",
      description: "Confirm your candidate commitment: it enters the dependency graph.",
      hints: WRITE,
      output: out.commitmentOut,
      args: { id: "commitmentId" },
    },
    run: ({ ctx, caller, params }) => confirmCommitment(ctx.db, caller, params.id, ctx.clock),
  }),
  endpoint({
    method: "post",
    path: "/api/commitments/{id}/fulfil",
    tag: TAGS.commitments,
    summary: "Mark your commitment fulfilled",
    access: "principal",
    params: uuidId,
    body: fulfilCommitmentInput,
    answers: ok(v.commitment),
    refusals: [403, 404, 409],
    otherConflicts: ["wrong_status"],
    tool: {
      name: "fulfil_commitment",
      description: "Mark your commitment fulfilled, saying how.",
      hints: WRITE,
      output: out.commitmentOut,
      args: { id: "commitmentId" },
    },
    run: ({ ctx, caller, params, body }) => fulfilCommitment(ctx.db, caller, params.id, body, ctx.clock),
  }),
  endpoint({
    method: "post",
    path: "/api/commitments/{id}/withdraw",
    tag: TAGS.commitments,
    summary: "Withdraw your commitment, saying why",
    access: "principal",
    params: uuidId,
    body: withdrawCommitmentInput,
    answers: ok(v.commitment),
    refusals: [403, 404, 409],
    otherConflicts: ["wrong_status"],
    tool: {
      name: "withdraw_commitment",
      description: "Withdraw your commitment, saying why.",
      hints: DESTRUCTIVE,
      output: out.commitmentOut,
      args: { id: "commitmentId" },
    },
    run: ({ ctx, caller, params, body }) => withdrawCommitment(ctx.db, caller, params.id, body, ctx.clock),
  }),
  endpoint({
    method: "post",
    path: "/api/commitments/{id}/dependencies",
    tag: TAGS.commitments,
    summary: "Say what this commitment waits on; a cycle is refused with its `path`",
    access: "principal",
    params: uuidId,
    body: addDependencyInput,
    answers: created(v.commitment),
    refusals: [403, 404, 409],
    conflicts: [cycleError],
    otherConflicts: ["duplicate", "wrong_status"],
    tool: {
      name: "add_dependency",
      description: "Your commitment waits on blockerId (both confirmed). A cycle is refused with its path.",
      hints: WRITE,
      output: out.commitmentOut,
      args: { id: "commitmentId" },
    },
    run: async ({ ctx, caller, params, body }) => {
      const { id } = params;
      return await addDependency(ctx.db, caller, id, body, ctx.clock);
    },
  }),
];

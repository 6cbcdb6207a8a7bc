// The commitment ledger: propose, confirm, fulfil, withdraw, and what waits on what.
import { addDependencyInput } from "@/server/commitments/add-dependency";
import { confirmCommitmentInput } from "@/server/commitments/confirm";
import { fulfilCommitmentInput } from "@/server/commitments/fulfil";
import { listCommitmentsQuery } from "@/server/commitments/list-commitments";
import { proposeCommitmentInput } from "@/server/commitments/propose";
import { withdrawCommitmentInput } from "@/server/commitments/withdraw";
import { cycleError } from "../errors";
import * as v from "../views";
import { uuidId, ok, created, type RouteSpec, TAGS } from "./route-spec";

export const COMMITMENT_ROUTES: RouteSpec[] = [
  {
    method: "get",
    path: "/api/commitments",
    tag: TAGS.commitments,
    summary: "The commitment ledger",
    access: "principal",
    query: listCommitmentsQuery,
    answers: ok(v.page(v.commitment)),
    refusals: [],
  },
  {
    method: "post",
    path: "/api/commitments",
    tag: TAGS.commitments,
    summary: "Propose a commitment",
    access: "principal",
    body: proposeCommitmentInput,
    answers: created(v.commitment),
    refusals: [403, 404],
  },
  {
    method: "get",
    path: "/api/commitments/graph",
    tag: TAGS.commitments,
    summary: "What waits on what, with the critical path",
    access: "principal",
    answers: ok(v.commitmentGraph),
    refusals: [],
  },
  ...(["confirm", "fulfil", "withdraw"] as const).map(
    (step): RouteSpec => ({
      method: "post",
      path: `/api/commitments/{id}/${step}`,
      tag: TAGS.commitments,
      summary: { confirm: "Confirm your candidate commitment", fulfil: "Mark your commitment fulfilled", withdraw: "Withdraw your commitment, saying why" }[step],
      access: "principal",
      params: uuidId,
      body: { confirm: confirmCommitmentInput, fulfil: fulfilCommitmentInput, withdraw: withdrawCommitmentInput }[step],
      answers: ok(v.commitment),
      refusals: [403, 404, 409],
      otherConflicts: ["wrong_status"],
    }),
  ),
  {
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
  },
];

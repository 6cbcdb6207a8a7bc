// MCP tools of the decision board and the commitment ledger: vote, promise, depend (cycles refused).
import { addDependency, addDependencyInput } from "../../../domain/commitments/add-dependency";
import { confirmCommitment, confirmCommitmentInput } from "../../../domain/commitments/confirm";
import { fulfilCommitment, fulfilCommitmentInput } from "../../../domain/commitments/fulfil";
import { listCommitments, listCommitmentsQuery } from "../../../domain/commitments/list-commitments";
import { loadCommitmentGraph } from "../../../domain/commitments/load-graph";
import { proposeCommitment, proposeCommitmentInput } from "../../../domain/commitments/propose";
import { withdrawCommitment, withdrawCommitmentInput } from "../../../domain/commitments/withdraw";
import { castBallot, castBallotInput } from "../../../domain/decisions/cast-ballot";
import { readDecisionView } from "../../../domain/decisions/decision-view";
import { listDecisions, listDecisionsQuery } from "../../../domain/decisions/list-decisions";
import { openDecision, openDecisionInput } from "../../../domain/decisions/open-decision";
import { ballotOut, commitmentOut, decisionOut, graphOut, page } from "../outputs";
import { defineTool, DESTRUCTIVE, READ, WRITE } from "../tool";
import { commitmentParam, decisionParam } from "./params";

export const decisionTools = [
  defineTool({
    name: "list_decisions",
    description: "Decisions, newest first, by status (open, closed, escalated, resolved, defaulted).",
    rest: "GET /api/decisions",
    input: listDecisionsQuery,
    output: page(decisionOut),
    annotations: READ,
    run: ({ db }, _, query) => listDecisions(db, query),
  }),
  defineTool({
    name: "get_decision",
    description: "One decision with its tally and every ballot's reasoning.",
    rest: "GET /api/decisions/:id",
    params: decisionParam,
    output: decisionOut,
    annotations: READ,
    run: ({ db }, { decisionId }) => readDecisionView(db, decisionId),
  }),
  defineTool({
    name: "open_decision",
    description: "Open a vote: question, ≥2 options, a default, the consequence of no decision, quorum and timeboxes.",
    rest: "POST /api/decisions",
    input: openDecisionInput,
    output: decisionOut,
    annotations: WRITE,
    run: ({ db, caller, clock }, _, input) => openDecision(db, caller, input, clock),
  }),
  defineTool({
    name: "cast_ballot",
    description: "Cast your one ballot on an open decision: an option and your reasoning.",
    rest: "POST /api/decisions/:id/ballots",
    params: decisionParam,
    input: castBallotInput,
    output: ballotOut,
    annotations: WRITE,
    run: ({ db, caller, clock }, { decisionId }, input) => castBallot(db, caller, decisionId, input, clock),
  }),
  defineTool({
    name: "list_commitments",
    description: "The commitment ledger, newest first, by owner and status.",
    rest: "GET /api/commitments",
    input: listCommitmentsQuery,
    output: page(commitmentOut),
    annotations: READ,
    run: ({ db, clock }, _, query) => listCommitments(db, query, clock.now()),
  }),
  defineTool({
    name: "commitment_graph",
    description: "Confirmed commitments, their dependency edges and the critical path.",
    rest: "GET /api/commitments/graph",
    output: graphOut,
    annotations: READ,
    run: ({ db, clock }) => loadCommitmentGraph(db, clock.now()),
  }),
  defineTool({
    name: "propose_commitment",
    description: '"I\'ll take it": a candidate commitment; it counts once you confirm it.',
    rest: "POST /api/commitments",
    input: proposeCommitmentInput,
    output: commitmentOut,
    annotations: WRITE,
    run: ({ db, caller, clock }, _, input) => proposeCommitment(db, caller, input, clock),
  }),
  defineTool({
    name: "confirm_commitment",
    description: "Confirm your candidate commitment: it enters the dependency graph.",
    rest: "POST /api/commitments/:id/confirm",
    params: commitmentParam,
    input: confirmCommitmentInput,
    output: commitmentOut,
    annotations: WRITE,
    run: ({ db, caller, clock }, { commitmentId }) => confirmCommitment(db, caller, commitmentId, clock),
  }),
  defineTool({
    name: "fulfil_commitment",
    description: "Mark your commitment fulfilled, saying how.",
    rest: "POST /api/commitments/:id/fulfil",
    params: commitmentParam,
    input: fulfilCommitmentInput,
    output: commitmentOut,
    annotations: WRITE,
    run: ({ db, caller, clock }, { commitmentId }, input) => fulfilCommitment(db, caller, commitmentId, input, clock),
  }),
  defineTool({
    name: "withdraw_commitment",
    description: "Withdraw your commitment, saying why.",
    rest: "POST /api/commitments/:id/withdraw",
    params: commitmentParam,
    input: withdrawCommitmentInput,
    output: commitmentOut,
    annotations: DESTRUCTIVE,
    run: ({ db, caller, clock }, { commitmentId }, input) => withdrawCommitment(db, caller, commitmentId, input, clock),
  }),
  defineTool({
    name: "add_dependency",
    description: "Your commitment waits on blockerId (both confirmed). A cycle is refused with its path.",
    rest: "POST /api/commitments/:id/dependencies",
    params: commitmentParam,
    input: addDependencyInput,
    output: commitmentOut,
    annotations: WRITE,
    run: ({ db, caller, clock }, { commitmentId }, input) => addDependency(db, caller, commitmentId, input, clock),
  }),
];

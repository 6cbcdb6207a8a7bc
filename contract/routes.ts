// Every route of the HTTP API as data: its path, the very zod schemas its handler reads params, query and
// body with (imported from server/, as the handler imports them), its success answer and its refusals.
// contract/document.test.ts fails when a route handler under app/api has no entry here.
import { z } from "zod";
import { flushDigestInput } from "@/server/relay/agent-digest";
import { agentRunsQuery, billPageQuery, billTasksQuery } from "@/server/bill/recent";
import { billQuery } from "@/server/bill/read-bill";
import { billSeriesQuery } from "@/server/bill/series";
import { setAllowanceInput } from "@/server/budgets/set-allowance";
import { addDependencyInput } from "@/server/commitments/add-dependency";
import { confirmCommitmentInput } from "@/server/commitments/confirm";
import { fulfilCommitmentInput } from "@/server/commitments/fulfil";
import { listCommitmentsQuery } from "@/server/commitments/list-commitments";
import { proposeCommitmentInput } from "@/server/commitments/propose";
import { withdrawCommitmentInput } from "@/server/commitments/withdraw";
import { castBallotInput } from "@/server/decisions/cast-ballot";
import { listDecisionsQuery } from "@/server/decisions/list-decisions";
import { openDecisionInput } from "@/server/decisions/open-decision";
import { resolveEscalationInput } from "@/server/decisions/resolve-escalation";
import { exportQuery } from "@/server/journal/export";
import { listJournalQuery } from "@/server/journal/list";
import { runIdSchema } from "@/server/journal/run-journal";
import { waitForEventsQuery } from "@/server/journal/wait-for-events";
import { listLessonsQuery } from "@/server/memory/list-memory";
import { pinExistingPrincipleInput, pinPrincipleInput } from "@/server/memory/pin-principle";
import { recordLessonInput } from "@/server/memory/record-lesson";
import { unpinPrincipleInput } from "@/server/memory/unpin-principle";
import { createAgentInput } from "@/server/principals/create-principal";
import { rotateKeyInput } from "@/server/principals/keys";
import { signOutInput } from "@/server/principals/sign-out";
import { advanceCursorInput } from "@/server/relay/cursor";
import { gateLogQuery } from "@/server/relay/gate-log";
import { inboxQuery } from "@/server/relay/inbox";
import { postMessageInput } from "@/server/relay/post-message";
import { checkPathsInput } from "@/server/reservations/check-paths";
import { forceReleaseInput } from "@/server/reservations/force-release";
import { listReservationsQuery } from "@/server/reservations/list";
import { releaseReservationInput } from "@/server/reservations/release";
import { renewReservationInput } from "@/server/reservations/renew";
import { reservePathsInput } from "@/server/reservations/reserve";
import { listMessagesQuery } from "@/server/rooms/list-messages";
import { createRoomInput } from "@/server/rooms/rooms";
import { requestStopInput } from "@/server/runs/request-stop";
import { cancelTaskInput } from "@/server/tasks/cancel";
import { claimTaskInput } from "@/server/tasks/claim";
import { claimNextTaskInput } from "@/server/tasks/claim-next";
import { createTaskInput } from "@/server/tasks/create";
import { heartbeatInput } from "@/server/tasks/heartbeat";
import { listTasksQuery } from "@/server/tasks/list";
import { appendOutputInput } from "@/server/tasks/append-output";
import { listOutputQuery } from "@/server/tasks/list-output";
import { reopenTaskInput } from "@/server/tasks/reopen";
import { reviewTaskInput } from "@/server/tasks/review";
import { submitTaskInput } from "@/server/tasks/submit";
import { addWebhookInput } from "@/server/webhooks/manage";
import { cycleError, errorBody, type Refusal, reservedError, staleError, staleFenceError } from "./errors";
import * as v from "./views";

export const TAGS = {
  health: "Health",
  principals: "Principals",
  rooms: "Rooms",
  tasks: "Tasks",
  decisions: "Decisions",
  commitments: "Commitments",
  memory: "Memory",
  reservations: "Reservations",
  runs: "Runs and budgets",
  journal: "Journal",
  bill: "Bill",
  webhooks: "Webhooks",
  surfaces: "Surfaces",
} as const;
export type Tag = (typeof TAGS)[keyof typeof TAGS];

export const TAG_TEXT: Record<Tag, string> = {
  Health: "Liveness, for operators and load balancers.",
  Principals: "Who is calling, the roster, agents and their keys, browser sessions.",
  Rooms: "Chat under the relay's gates (rate, duplicate, freshness, lapping), cursors, inboxes and digests.",
  Tasks: "The board: claim with a lease and a fence, heartbeat, output, submit, review.",
  Decisions: "Questions with a quorum and a timebox; escalations go to humans.",
  Commitments: "The ledger of promises, and what waits on what.",
  Memory: "Lessons from worked tasks, promoted (or pinned) to principles.",
  Reservations: "Repository globs held under a lease, and the pre-commit question.",
  "Runs and budgets": "Quorum's own workers: stopping a run, funding a budget.",
  Journal: "Every event, for catching up, auditing and replaying.",
  Bill: "Tokens and money per agent, model, task and run.",
  Webhooks: "Signed deliveries of journal events to endpoints humans register.",
  Surfaces: "The MCP server, and this document.",
};

/** Who may call: nobody needs to sign in, a bearer key or session cookie, or a bearer key only (MCP). */
export type Access = "public" | "principal" | "bearer";

export interface Answer {
  status: number;
  description: string;
  /** A JSON body; none for 202/204 without one. */
  schema?: z.ZodType;
  /** Another content type than JSON (an event stream, a JSON Lines download). */
  contentType?: string;
}

export interface RouteSpec {
  method: "get" | "post" | "delete";
  /** The OpenAPI path: `/api/tasks/{id}/claim`. */
  path: string;
  tag: Tag;
  summary: string;
  description?: string;
  access: Access;
  params?: z.ZodObject;
  query?: z.ZodType;
  body?: z.ZodType;
  answers: Answer[];
  /** The refusals beyond the ones every route of its kind can give (400, 401, 413 for bodies). */
  refusals: Refusal[];
  /** 409 codes with fields of their own, and the other 409 codes. */
  conflicts?: z.ZodObject[];
  otherConflicts?: string[];
}

const uuidId = z.strictObject({ id: z.uuid() });
const idOrName = z.strictObject({ id: z.string().min(1).max(64).describe("the agent's id or name") });
const roomName = z.strictObject({ room: z.string().min(1).max(64).describe("the room's name (`general` always exists)") });
const runId = z.strictObject({ id: runIdSchema });

const ok = (schema: z.ZodType, description = "OK"): Answer[] => [{ status: 200, description, schema }];
const created = (schema: z.ZodType, description = "Created"): Answer[] => [{ status: 201, description, schema }];
const noContent = (description: string): Answer => ({ status: 204, description });

const R = TAGS;

export const ROUTES: RouteSpec[] = [
  { method: "get", path: "/api/health", tag: R.health, summary: "Liveness and database check", access: "public", answers: ok(v.health), refusals: [] },
  {
    method: "get",
    path: "/api/openapi.json",
    tag: R.surfaces,
    summary: "This document: OpenAPI 3.1, generated from the routes' own zod schemas",
    access: "public",
    answers: ok(z.looseObject({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) }), "The OpenAPI document"),
    refusals: [],
  },
  { method: "get", path: "/api/me", tag: R.principals, summary: "Who you are", access: "principal", answers: ok(v.principal), refusals: [] },
  {
    method: "get",
    path: "/api/me/waiting",
    tag: R.principals,
    summary: "What waits for your decision: escalations, reviews you approve, requests addressed to you",
    access: "principal",
    answers: ok(v.anyObject),
    refusals: [],
  },
  {
    method: "get",
    path: "/api/agents",
    tag: R.principals,
    summary: "The roster with presence (agents also with lease, load, success rate, spend)",
    access: "principal",
    answers: ok(z.looseObject({ items: z.array(v.rosterEntry) })),
    refusals: [],
  },
  {
    method: "post",
    path: "/api/agents",
    tag: R.principals,
    summary: "Register an agent (humans); its key is shown once",
    access: "principal",
    body: createAgentInput,
    answers: created(v.registeredAgent),
    refusals: [403, 409],
    otherConflicts: ["name_taken"],
  },
  {
    method: "get",
    path: "/api/agents/{id}",
    tag: R.principals,
    summary: "One agent: presence, lease, load, success rate, spend, budgets, gate rejections",
    access: "principal",
    params: uuidId,
    answers: ok(v.anyObject),
    refusals: [404],
  },
  {
    method: "get",
    path: "/api/agents/{id}/runs",
    tag: R.runs,
    summary: "The agent's runs, newest first, with status, tokens and cost",
    access: "principal",
    params: uuidId,
    query: agentRunsQuery,
    answers: ok(v.page(v.anyObject)),
    refusals: [404],
  },
  {
    method: "get",
    path: "/api/agents/{id}/digest",
    tag: R.rooms,
    summary: "What the agent's focus-window digest holds (the agent itself, or a human)",
    access: "principal",
    params: uuidId,
    answers: ok(v.digest),
    refusals: [403, 404],
  },
  {
    method: "post",
    path: "/api/agents/{id}/digest",
    tag: R.rooms,
    summary: "Flush the digest: deliver what it holds as one batch",
    access: "principal",
    params: uuidId,
    body: flushDigestInput,
    answers: ok(v.flushed),
    refusals: [403, 404],
  },
  {
    method: "post",
    path: "/api/agents/{id}/keys",
    tag: R.principals,
    summary: "Rotate the agent's key (humans): a new one, shown once; the old ones refused at once",
    access: "principal",
    params: idOrName,
    body: rotateKeyInput,
    answers: created(v.issuedKey),
    refusals: [403, 404],
  },
  {
    method: "delete",
    path: "/api/agents/{id}/keys",
    tag: R.principals,
    summary: "Revoke every key of the agent (humans)",
    access: "principal",
    params: idOrName,
    answers: [noContent("Revoked")],
    refusals: [403, 404],
  },
  {
    method: "post",
    path: "/api/session/sign-out",
    tag: R.principals,
    summary: "End this browser session and clear its cookie (a key is not a session: 403)",
    access: "principal",
    body: signOutInput,
    answers: [noContent("Signed out")],
    refusals: [403],
  },
  {
    method: "get",
    path: "/api/rooms",
    tag: R.rooms,
    summary: "Rooms (`general` always exists)",
    access: "principal",
    answers: ok(z.looseObject({ items: z.array(v.room) })),
    refusals: [],
  },
  {
    method: "post",
    path: "/api/rooms",
    tag: R.rooms,
    summary: "Create a room (humans)",
    access: "principal",
    body: createRoomInput,
    answers: created(v.room),
    refusals: [403, 409],
    otherConflicts: ["name_taken"],
  },
  {
    method: "get",
    path: "/api/rooms/{room}/messages",
    tag: R.rooms,
    summary: "Messages ascending after a seq, or the latest tail",
    access: "principal",
    params: roomName,
    query: listMessagesQuery,
    answers: ok(v.page(v.message)),
    refusals: [404],
  },
  {
    method: "post",
    path: "/api/rooms/{room}/messages",
    tag: R.rooms,
    summary: "Post a message; agents pass the relay's gates",
    description:
      "A first post from an agent that has not read the room is refused 409 `stale` with the `unread` messages and a `holdToken`: " +
      "read them, then ack with POST /api/rooms/{room}/cursor `{seq}` and post again, or repeat the post with `holdToken`. " +
      "Too fast: 429 `rate_limited` with `retryAfterMs`. The same text twice: 409 `duplicate`. Talking only to other agents: 409 `lapping`.",
    access: "principal",
    params: roomName,
    body: postMessageInput,
    answers: created(v.message, "Posted; `seq` is its place in the room"),
    refusals: [403, 404, 409, 429],
    conflicts: [staleError],
    otherConflicts: ["duplicate", "lapping"],
  },
  {
    method: "get",
    path: "/api/rooms/{room}/cursor",
    tag: R.rooms,
    summary: "Your seen-cursor in the room",
    access: "principal",
    params: roomName,
    answers: ok(v.cursor),
    refusals: [404],
  },
  {
    method: "post",
    path: "/api/rooms/{room}/cursor",
    tag: R.rooms,
    summary: "Ack the room up to `seq`: the only way a seen-cursor moves",
    access: "principal",
    params: roomName,
    body: advanceCursorInput,
    answers: ok(v.cursor),
    refusals: [404],
  },
  {
    method: "get",
    path: "/api/rooms/{room}/inbox",
    tag: R.rooms,
    summary: "Your deliverable, unacked mail in this room (reading never acks)",
    access: "principal",
    params: roomName,
    query: inboxQuery,
    answers: ok(v.inbox),
    refusals: [404],
  },
  {
    method: "get",
    path: "/api/rooms/{room}/presence",
    tag: R.rooms,
    summary: "Who is here, with roles, and who is focusing",
    access: "principal",
    params: roomName,
    answers: ok(z.looseObject({ items: z.array(v.presenceEntry) })),
    refusals: [404],
  },
  {
    method: "get",
    path: "/api/rooms/{room}/gates",
    tag: R.rooms,
    summary: "The room's recent gate rejections, newest first",
    access: "principal",
    params: roomName,
    query: gateLogQuery,
    answers: ok(v.page(v.gateRejection)),
    refusals: [404],
  },
  {
    method: "get",
    path: "/api/tasks",
    tag: R.tasks,
    summary: "The board, newest first",
    access: "principal",
    query: listTasksQuery,
    answers: ok(v.page(v.task)),
    refusals: [],
  },
  {
    method: "post",
    path: "/api/tasks",
    tag: R.tasks,
    summary: "File a task; work starts once it has acceptance criteria",
    access: "principal",
    body: createTaskInput,
    answers: created(v.task),
    refusals: [403, 404],
  },
  {
    method: "post",
    path: "/api/tasks/claim-next",
    tag: R.tasks,
    summary: "Claim the best ready task for you: 200 with it, or 204 when none is ready",
    access: "principal",
    body: claimNextTaskInput,
    answers: [...ok(v.task, "Claimed: keep its `fence`, every later write carries it"), noContent("Nothing is ready for you")],
    refusals: [403],
  },
  {
    method: "get",
    path: "/api/tasks/{id}",
    tag: R.tasks,
    summary: "One task with its evidence, reviews, ADR, latest output and thread",
    access: "principal",
    params: uuidId,
    answers: ok(v.taskDetail),
    refusals: [404],
  },
  {
    method: "post",
    path: "/api/tasks/{id}/claim",
    tag: R.tasks,
    summary: "Claim a ready task: you own it, with a lease and `fence + 1`",
    access: "principal",
    params: uuidId,
    body: claimTaskInput,
    answers: ok(v.task),
    refusals: [403, 404, 409],
    otherConflicts: ["wrong_status", "no_acceptance_criteria"],
  },
  {
    method: "post",
    path: "/api/tasks/{id}/heartbeat",
    tag: R.tasks,
    summary: "Renew your lease; a stale fence is refused (you lost the task)",
    access: "principal",
    params: uuidId,
    body: heartbeatInput,
    answers: ok(v.task),
    refusals: [403, 404, 409],
    conflicts: [staleFenceError],
    otherConflicts: ["wrong_status"],
  },
  {
    method: "get",
    path: "/api/tasks/{id}/output",
    tag: R.tasks,
    summary: "The output items written so far, in order (where a replacement resumes)",
    access: "principal",
    params: uuidId,
    query: listOutputQuery,
    answers: ok(v.page(v.outputItem)),
    refusals: [404],
  },
  {
    method: "post",
    path: "/api/tasks/{id}/output",
    tag: R.tasks,
    summary: "Append output items (any JSON), so a successor can resume",
    access: "principal",
    params: uuidId,
    body: appendOutputInput,
    answers: ok(v.task),
    refusals: [403, 404, 409],
    conflicts: [staleFenceError],
    otherConflicts: ["wrong_status"],
  },
  {
    method: "post",
    path: "/api/tasks/{id}/submit",
    tag: R.tasks,
    summary: "Submit for review with a summary and evidence",
    access: "principal",
    params: uuidId,
    body: submitTaskInput,
    answers: ok(v.task),
    refusals: [403, 404, 409],
    conflicts: [staleFenceError],
    otherConflicts: ["wrong_status"],
  },
  {
    method: "post",
    path: "/api/tasks/{id}/review",
    tag: R.tasks,
    summary: "Accept or reject a submission (the approver, never the owner)",
    access: "principal",
    params: uuidId,
    body: reviewTaskInput,
    answers: ok(v.task),
    refusals: [403, 404, 409],
    otherConflicts: ["wrong_status"],
  },
  {
    method: "post",
    path: "/api/tasks/{id}/reopen",
    tag: R.tasks,
    summary: "Reopen a done task on new evidence",
    access: "principal",
    params: uuidId,
    body: reopenTaskInput,
    answers: ok(v.task),
    refusals: [403, 404, 409],
    otherConflicts: ["wrong_status", "duplicate"],
  },
  {
    method: "post",
    path: "/api/tasks/{id}/cancel",
    tag: R.tasks,
    summary: "Cancel a task, with an ADR",
    access: "principal",
    params: uuidId,
    body: cancelTaskInput,
    answers: ok(v.task),
    refusals: [403, 404, 409],
    otherConflicts: ["wrong_status"],
  },
  {
    method: "get",
    path: "/api/decisions",
    tag: R.decisions,
    summary: "Decisions",
    access: "principal",
    query: listDecisionsQuery,
    answers: ok(v.page(v.decision)),
    refusals: [],
  },
  {
    method: "post",
    path: "/api/decisions",
    tag: R.decisions,
    summary: "Open a decision with options, a default, a quorum and timeboxes",
    access: "principal",
    body: openDecisionInput,
    answers: created(v.decision),
    refusals: [403],
  },
  {
    method: "get",
    path: "/api/decisions/{id}",
    tag: R.decisions,
    summary: "One decision with its tally and ballots",
    access: "principal",
    params: uuidId,
    answers: ok(v.decision),
    refusals: [404],
  },
  {
    method: "post",
    path: "/api/decisions/{id}/ballots",
    tag: R.decisions,
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
    tag: R.decisions,
    summary: "Resolve an escalated decision (humans)",
    access: "principal",
    params: uuidId,
    body: resolveEscalationInput,
    answers: ok(v.decision),
    refusals: [403, 404, 409],
    otherConflicts: ["wrong_status", "timebox_expired"],
  },
  {
    method: "get",
    path: "/api/commitments",
    tag: R.commitments,
    summary: "The commitment ledger",
    access: "principal",
    query: listCommitmentsQuery,
    answers: ok(v.page(v.commitment)),
    refusals: [],
  },
  {
    method: "post",
    path: "/api/commitments",
    tag: R.commitments,
    summary: "Propose a commitment",
    access: "principal",
    body: proposeCommitmentInput,
    answers: created(v.commitment),
    refusals: [403, 404],
  },
  {
    method: "get",
    path: "/api/commitments/graph",
    tag: R.commitments,
    summary: "What waits on what, with the critical path",
    access: "principal",
    answers: ok(v.commitmentGraph),
    refusals: [],
  },
  ...(["confirm", "fulfil", "withdraw"] as const).map(
    (step): RouteSpec => ({
      method: "post",
      path: `/api/commitments/{id}/${step}`,
      tag: R.commitments,
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
    tag: R.commitments,
    summary: "Say what this commitment waits on; a cycle is refused with its `path`",
    access: "principal",
    params: uuidId,
    body: addDependencyInput,
    answers: created(v.commitment),
    refusals: [403, 404, 409],
    conflicts: [cycleError],
    otherConflicts: ["duplicate", "wrong_status"],
  },
  {
    method: "get",
    path: "/api/lessons",
    tag: R.memory,
    summary: "Lessons",
    access: "principal",
    query: listLessonsQuery,
    answers: ok(v.page(v.lesson)),
    refusals: [],
  },
  {
    method: "post",
    path: "/api/lessons",
    tag: R.memory,
    summary: "Record a lesson (`taskId`: a task you owned or reviewed)",
    access: "principal",
    body: recordLessonInput,
    answers: created(v.anyObject, "Recorded, with the principle it promoted if any"),
    refusals: [403, 404, 409],
    otherConflicts: ["duplicate"],
  },
  {
    method: "get",
    path: "/api/principles",
    tag: R.memory,
    summary: "Principles in force and pinned",
    access: "principal",
    answers: ok(v.page(v.principle)),
    refusals: [],
  },
  {
    method: "post",
    path: "/api/principles",
    tag: R.memory,
    summary: "Pin a lesson or your own words as a principle (humans)",
    access: "principal",
    body: pinPrincipleInput,
    answers: created(v.principle),
    refusals: [403, 404, 409],
    otherConflicts: ["wrong_status"],
  },
  ...(["pin", "unpin"] as const).map(
    (step): RouteSpec => ({
      method: "post",
      path: `/api/principles/{id}/${step}`,
      tag: R.memory,
      summary: step === "pin" ? "Pin a promoted principle (humans)" : "Unpin a principle (humans)",
      access: "principal",
      params: uuidId,
      body: step === "pin" ? pinExistingPrincipleInput : unpinPrincipleInput,
      answers: ok(v.principle),
      refusals: [403, 404, 409],
      otherConflicts: ["wrong_status"],
    }),
  ),
  {
    method: "get",
    path: "/api/reservations",
    tag: R.reservations,
    summary: "Reservations (live ones by default)",
    access: "principal",
    query: listReservationsQuery,
    answers: ok(v.page(v.reservation)),
    refusals: [],
  },
  {
    method: "post",
    path: "/api/reservations",
    tag: R.reservations,
    summary: "Reserve repository globs under a lease; an overlapping exclusive hold is refused with its `holders`",
    access: "principal",
    body: reservePathsInput,
    answers: created(v.reservation),
    refusals: [403, 404, 409],
    conflicts: [reservedError],
    otherConflicts: ["too_many_reservations"],
  },
  {
    method: "post",
    path: "/api/reservations/check",
    tag: R.reservations,
    summary: "Which paths someone else holds (the pre-commit hook's question)",
    access: "principal",
    body: checkPathsInput,
    answers: ok(v.pathCheck),
    refusals: [],
  },
  {
    method: "post",
    path: "/api/reservations/{id}/renew",
    tag: R.reservations,
    summary: "Renew your reservation's lease",
    access: "principal",
    params: uuidId,
    body: renewReservationInput,
    answers: ok(v.reservation),
    refusals: [403, 404, 409],
    conflicts: [staleFenceError, reservedError],
    otherConflicts: ["wrong_status"],
  },
  {
    method: "post",
    path: "/api/reservations/{id}/release",
    tag: R.reservations,
    summary: "Release your reservation",
    access: "principal",
    params: uuidId,
    body: releaseReservationInput,
    answers: ok(v.reservation),
    refusals: [403, 404, 409],
    conflicts: [staleFenceError],
    otherConflicts: ["wrong_status"],
  },
  {
    method: "post",
    path: "/api/reservations/{id}/force-release",
    tag: R.reservations,
    summary: "End someone's stale reservation (humans); its holder is told",
    access: "principal",
    params: uuidId,
    body: forceReleaseInput,
    answers: ok(v.reservation),
    refusals: [403, 404, 409],
    otherConflicts: ["wrong_status"],
  },
  {
    method: "post",
    path: "/api/runs/{id}/stop",
    tag: R.runs,
    summary: "Ask a run to stop at its next turn boundary (humans, or the run's own agent)",
    access: "principal",
    params: runId,
    body: requestStopInput,
    answers: [{ status: 202, description: "Asked", schema: v.anyObject }],
    refusals: [403, 404, 409],
    otherConflicts: ["run_finished"],
  },
  {
    method: "post",
    path: "/api/budgets/{id}/allowance",
    tag: R.runs,
    summary: "Change a budget's allowance, in tokens; a top-up lets a halted run resume",
    access: "principal",
    params: uuidId,
    body: setAllowanceInput,
    answers: ok(v.anyObject),
    refusals: [403, 404, 409],
    otherConflicts: ["over_allocated", "under_children"],
  },
  {
    method: "get",
    path: "/api/events",
    tag: R.journal,
    summary: "News for agents: a long-poll (≤ 25 s) over the journal; reading never acks",
    access: "principal",
    query: waitForEventsQuery,
    answers: ok(v.events),
    refusals: [],
  },
  {
    method: "get",
    path: "/api/journal",
    tag: R.journal,
    summary: "Journal events, cursor-paginated (`after=` pages are commit-safe)",
    access: "principal",
    query: listJournalQuery,
    answers: ok(v.page(v.journalEntry)),
    refusals: [],
  },
  {
    method: "get",
    path: "/api/journal/export",
    tag: R.journal,
    summary: "A run's or a task's events as a JSON Lines download",
    access: "principal",
    query: exportQuery,
    answers: [{ status: 200, description: "One journal event per line", contentType: "application/x-ndjson", schema: v.journalEntry }],
    refusals: [404],
  },
  {
    method: "get",
    path: "/api/journal/runs/{id}",
    tag: R.journal,
    summary: "A run's timeline: turns, model calls, tool calls with results, tokens",
    access: "principal",
    params: runId,
    answers: ok(v.anyObject),
    refusals: [404],
  },
  {
    method: "get",
    path: "/api/journal/runs/{id}/diagnose",
    tag: R.journal,
    summary: "The failure signatures in a run's journal",
    access: "principal",
    params: runId,
    answers: ok(z.looseObject({ runId: z.string(), events: z.number().int(), findings: z.array(z.looseObject({})) })),
    refusals: [404],
  },
  {
    method: "get",
    path: "/api/journal/runs/{id}/replay",
    tag: R.journal,
    summary: "Re-live a run from its journal and say whether it is identical",
    access: "principal",
    params: runId,
    answers: ok(v.anyObject),
    refusals: [404, 409],
    otherConflicts: ["not_replayable"],
  },
  {
    method: "get",
    path: "/api/journal/tasks/{id}/audit",
    tag: R.journal,
    summary: "Who approved or rejected what, on which evidence",
    access: "principal",
    params: uuidId,
    answers: ok(v.anyObject),
    refusals: [404],
  },
  {
    method: "get",
    path: "/api/journal/tasks/{id}/thread",
    tag: R.journal,
    summary: "The task's messages, transitions and run milestones, in order",
    access: "principal",
    params: uuidId,
    answers: ok(v.anyObject),
    refusals: [404],
  },
  {
    method: "get",
    path: "/api/stream",
    tag: R.journal,
    summary: "Server-Sent Events: every committed event you may see, live, with a heartbeat every 5 s",
    description: "Resumes from `Last-Event-ID` (or `?after=`). At most 8 open per principal: 429 `too_many_streams` with `retryAfterMs`.",
    access: "principal",
    answers: [{ status: 200, description: "An event stream", contentType: "text/event-stream", schema: z.string() }],
    refusals: [429],
  },
  {
    method: "get",
    path: "/api/bill",
    tag: R.bill,
    summary: "Tokens and money per agent, model, task and run",
    access: "principal",
    query: billQuery,
    answers: ok(v.anyObject),
    refusals: [],
  },
  {
    method: "get",
    path: "/api/bill/runs",
    tag: R.bill,
    summary: "Runs with their tokens and cost, newest first",
    access: "principal",
    query: billPageQuery,
    answers: ok(v.page(v.anyObject)),
    refusals: [],
  },
  {
    method: "get",
    path: "/api/bill/series",
    tag: R.bill,
    summary: "Spend over time per agent",
    access: "principal",
    query: billSeriesQuery,
    answers: ok(v.anyObject),
    refusals: [],
  },
  {
    method: "get",
    path: "/api/bill/tasks",
    tag: R.bill,
    summary: "Tasks with their tokens and cost, newest spender first",
    access: "principal",
    query: billTasksQuery,
    answers: ok(v.page(v.anyObject)),
    refusals: [],
  },
  {
    method: "get",
    path: "/api/webhooks",
    tag: R.webhooks,
    summary: "Every webhook endpoint with its recent deliveries (humans)",
    access: "principal",
    answers: ok(v.anyObject),
    refusals: [403],
  },
  {
    method: "post",
    path: "/api/webhooks",
    tag: R.webhooks,
    summary: "Register an endpoint (humans); its signing secret is shown once",
    access: "principal",
    body: addWebhookInput,
    answers: created(v.anyObject),
    refusals: [403],
  },
  {
    method: "delete",
    path: "/api/webhooks/{id}",
    tag: R.webhooks,
    summary: "Remove an endpoint (humans)",
    access: "principal",
    params: uuidId,
    answers: [noContent("Removed")],
    refusals: [403, 404],
  },
  {
    method: "post",
    path: "/api/webhooks/{id}/test",
    tag: R.webhooks,
    summary: "Queue a signed `webhook.test` delivery (humans)",
    access: "principal",
    params: uuidId,
    body: z.strictObject({}),
    answers: [{ status: 202, description: "Queued", schema: v.anyObject }],
    refusals: [403, 404],
  },
  {
    method: "post",
    path: "/api/mcp",
    tag: R.surfaces,
    summary: "The MCP server (Streamable HTTP, stateless; a bearer key per request)",
    description: "JSON-RPC 2.0 messages; `?profile=full|worker|chat` picks the tools. See README's Bring your own agent.",
    access: "bearer",
    query: z.strictObject({ profile: z.enum(["full", "worker", "chat"]).optional() }),
    body: z.looseObject({ jsonrpc: z.literal("2.0"), method: z.string() }),
    answers: [{ status: 200, description: "A JSON-RPC answer (JSON, or an event stream when asked)", schema: z.looseObject({ jsonrpc: z.literal("2.0") }) }],
    refusals: [403],
  },
  {
    method: "get",
    path: "/api/mcp",
    tag: R.surfaces,
    summary: "Not served: the MCP server is stateless (405)",
    access: "public",
    answers: [{ status: 405, description: "Method not allowed", schema: errorBody }],
    refusals: [],
  },
  {
    method: "delete",
    path: "/api/mcp",
    tag: R.surfaces,
    summary: "Not served: the MCP server is stateless (405)",
    access: "public",
    answers: [{ status: 405, description: "Method not allowed", schema: errorBody }],
    refusals: [],
  },
];

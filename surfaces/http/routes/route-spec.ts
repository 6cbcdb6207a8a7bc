// What an endpoint of the HTTP API is: one declaration of its path, who may call it, the zod schemas its
// params, query and body are read with, its answers and refusals, and the domain call it makes. The router
// (surfaces/http/router.ts) serves it, the OpenAPI document describes it, the authz matrix and fuzzer call it.
import { z } from "zod";
import type { ServerContext } from "@/domain/context";
import { runIdSchema } from "@/domain/journal/load";
import type { TeamStatus } from "@/domain/flights/team-status";
import type { Principal } from "@/domain/principal";
import type { SkillMessage } from "@/surfaces/a2a/skill";
import type { ToolAnnotations } from "@/surfaces/mcp/tool";
import type { Refusal } from "../errors";

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
  forges: "Forges",
  surfaces: "Surfaces",
  experiments: "Experiments",
} as const;
export type Tag = (typeof TAGS)[keyof typeof TAGS];

export const TAG_TEXT: Record<Tag, string> = {
  Health: "Liveness and metrics, for operators, load balancers and Prometheus.",
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
  Forges: "The hosts of remote repositories and the tokens the hub uses there (humans; a token is never answered).",
  Surfaces: "The MCP server, A2A's JSON-RPC binding and agent card, and this document.",
  Experiments: "The tables `quorum experiment` saved: what the harness measured on a scratch database of its own.",
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

/** What a declaration's `run` is handed, read and checked already: the caller comes first, before any lookup. */
export interface Call<P = unknown, Q = unknown, B = unknown, C extends Principal | null = Principal | null> {
  ctx: ServerContext;
  /** Signed in (a bearer key or the session cookie) for `principal` endpoints; null for the others. */
  caller: C;
  params: P;
  query: Q;
  body: B;
  request: Request;
  /** Aborts when the caller goes: the HTTP request's signal, or the MCP call's. */
  signal: AbortSignal;
  /** The endpoints the router serves (the document's endpoint describes them). */
  routes: RouteSpec[];
}

/** A JSON body (sent with the declaration's success status), or a Response of its own (a stream, a download). */
export type Run = (call: Call<never, never, never, never>) => Promise<unknown>;

export interface RouteSpec {
  method: "get" | "post" | "put" | "patch" | "delete";
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
  /** Where the endpoint is also an MCP tool: how the tool names and shows it (surfaces/http/tools.ts derives the rest). */
  tool?: ToolFace;
  /** Where the endpoint is also an A2A skill: how a message becomes its body (surfaces/http/skills.ts derives the rest). */
  skill?: SkillFace;
  /** What the endpoint does; absent only for the paths beside /api that a page route serves (the agent card, /metrics). */
  run?: Run;
}

/**
 * The endpoint as an MCP tool: the tool reads the endpoint's own body or query schema and calls its `run`; what
 * differs is said here. Its output lists the fields an agent relies on (surfaces/mcp/outputs.ts), not the whole view,
 * to keep tools/list small in a model's context.
 */
export interface ToolFace {
  name: string;
  description: string;
  hints: ToolAnnotations;
  output: z.ZodType;
  /** The path's params as the tool's arguments name them (`{ id: "taskId" }`); one not named keeps its name. */
  args?: Record<string, string>;
  /** Path params an agent may leave out, with what they mean then (`general`, the caller itself). */
  omitted?: Record<string, (caller: Principal) => string>;
  /** The tool's answer from `run`'s, where they differ (claim-next's 204 is `{ task: null }`). */
  result?: (value: never) => object;
}

/**
 * The endpoint as an A2A skill on the agent card: SendMessage makes the message this endpoint's body, reads it with
 * the endpoint's body schema and calls its `run`; what differs is said here.
 */
export interface SkillFace {
  id: string;
  name: string;
  description: string;
  /** What holds now, said after the description (the team's state). */
  now?: (team: TeamStatus) => string;
  tags: string[];
  examples: string[];
  /** The skill a message that names none gets. */
  isDefault?: true;
  /** What a refusal calls the body ("invalid task: …"). */
  noun: string;
  /** The endpoint's body from the message; it may refuse what no body could say (a contextId where none is taken). */
  body: (message: SkillMessage) => Record<string, unknown>;
  /** The id of the task that stands for `run`'s answer. */
  task: (value: never) => string;
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** A declaration with its schemas' types carried into `run`: `call.body` is what `body` parses to. */
export function endpoint<A extends Access, P extends z.ZodObject | undefined = undefined, Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined>(
  spec: Omit<RouteSpec, "access" | "params" | "query" | "body" | "run"> & {
    access: A;
    params?: P;
    query?: Q;
    body?: B;
    run?: (call: Call<Parsed<P>, Parsed<Q>, Parsed<B>, A extends "principal" ? Principal : null>) => Promise<unknown>;
  },
): RouteSpec {
  return spec as RouteSpec;
}

/** The path params most routes take: a uuid, or a run's id. */
export const uuidId = z.strictObject({ id: z.uuid() });
export const runId = z.strictObject({ id: runIdSchema });

/** The usual success answers: 200 and 201 with a JSON body, 204 without one. */
export const ok = (schema: z.ZodType, description = "OK"): Answer[] => [{ status: 200, description, schema }];
export const created = (schema: z.ZodType, description = "Created"): Answer[] => [{ status: 201, description, schema }];
export const noContent = (description: string): Answer => ({ status: 204, description });

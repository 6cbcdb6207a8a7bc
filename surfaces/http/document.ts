// Builds the OpenAPI 3.1 document from surfaces/http/routes/ with zod 4's own JSON Schema output
// (draft 2020-12, OpenAPI 3.1's dialect): request schemas as zod reads them (`io: "input"`), answers as
// the server writes them (`io: "output"`). Shared views and refusals are components, referenced by $ref.
import { QUORUM_VERSION } from "@/domain/version";
import { z } from "zod";
import { SESSION_COOKIE } from "@/domain/principals/session-cookie";
import {
  cycleError,
  errorBody,
  invalidError,
  REFUSAL_TEXT,
  type Refusal,
  rateLimitedError,
  refusalSchema,
  reservedError,
  staleError,
  staleFenceError,
  tooLargeError,
} from "./errors";
import { type RouteSpec, TAG_TEXT, TAGS } from "./routes/route-spec";
import * as v from "./views";

export type JsonSchema = Record<string, unknown>;
export type OpenApiDocument = {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, unknown> };
  [key: string]: unknown;
};
export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters?: { name: string; in: "path" | "query"; required: boolean; description?: string; schema: JsonSchema }[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }> }>;
}

export const API_VERSION = QUORUM_VERSION;

/** The views and refusals every client meets, under stable names. */
const NAMED_OUTPUTS: [z.ZodType, string][] = [
  [v.principal, "Principal"],
  [v.rosterEntry, "RosterEntry"],
  [v.room, "Room"],
  [v.message, "Message"],
  [v.roomMessage, "RoomMessage"],
  [v.inbox, "Inbox"],
  [v.cursor, "Cursor"],
  [v.digest, "Digest"],
  [v.task, "Task"],
  [v.taskDetail, "TaskDetail"],
  [v.outputItem, "OutputItem"],
  [v.decision, "Decision"],
  [v.commitment, "Commitment"],
  [v.lesson, "Lesson"],
  [v.principle, "Principle"],
  [v.reservation, "Reservation"],
  [v.reservationHolder, "ReservationHolder"],
  [v.pathCheck, "PathCheck"],
  [v.events, "EventsPage"],
  [v.journalEntry, "JournalEntry"],
  [v.anyObject, "Object"],
  [errorBody, "Error"],
  [invalidError, "InvalidRequest"],
  [tooLargeError, "PayloadTooLarge"],
  [rateLimitedError, "RateLimited"],
  [staleError, "Stale"],
  [reservedError, "Reserved"],
  [cycleError, "Cycle"],
  [staleFenceError, "StaleFence"],
];

/** `post /api/tasks/{id}/claim` → `postTasksIdClaim`. */
export function operationIdOf(route: Pick<RouteSpec, "method" | "path">): string {
  const words = route.path
    .replace(/^\/api\//, "")
    .split(/[/{}.\-_]+/)
    .filter(Boolean);
  return route.method + words.map((w) => w[0].toUpperCase() + w.slice(1)).join("");
}

/** Strips what only makes sense at a JSON Schema's root, and zod's bounds that say nothing (±2^53). */
function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidy);
  if (!node || typeof node !== "object") return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node as JsonSchema)) {
    if (key === "$schema" || key === "$id") continue;
    if ((key === "maximum" && value === Number.MAX_SAFE_INTEGER) || (key === "minimum" && value === -Number.MAX_SAFE_INTEGER)) continue;
    out[key] = tidy(value);
  }
  return out;
}

const SHARED_REF = "#/components/schemas/__shared#/$defs/";

/** Replaces every node that refers to a shared def (zod may inline the def beside its `$ref`) with `replace(def)`. */
function replaceShared(node: unknown, replace: (def: string) => unknown): unknown {
  if (Array.isArray(node)) return node.map((n) => replaceShared(n, replace));
  if (!node || typeof node !== "object") return node;
  const ref = (node as JsonSchema).$ref;
  if (typeof ref === "string" && ref.startsWith(SHARED_REF)) return replace(ref.slice(SHARED_REF.length));
  return Object.fromEntries(Object.entries(node as JsonSchema).map(([key, child]) => [key, replaceShared(child, replace)]));
}

/**
 * zod puts recursive schemas (z.json(), any JSON value) under `__shared`: each becomes a component of its
 * own, and its references to itself become `{}` (any value) — one level deep, so typed clients get no
 * self-referencing type (TypeScript refuses those in an interface).
 */
function hoistShared(schemas: Record<string, JsonSchema>, prefix: string): Record<string, JsonSchema> {
  const { __shared, ...rest } = schemas;
  const defs = ((__shared as JsonSchema | undefined)?.$defs ?? {}) as Record<string, JsonSchema>;
  const names = new Map(Object.keys(defs).map((def, i) => [def, `${prefix}JsonValue${i === 0 ? "" : i}`]));
  const hoisted = Object.fromEntries(Object.entries(defs).map(([def, schema]) => [names.get(def)!, replaceShared(schema, () => ({})) as JsonSchema]));
  return { ...(replaceShared(rest, (def) => ({ $ref: `#/components/schemas/${names.get(def)}` })) as Record<string, JsonSchema>), ...hoisted };
}

function convert(registry: z.core.$ZodRegistry<{ id: string }>, io: "input" | "output"): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(registry, { io, target: "draft-2020-12", unrepresentable: "any", reused: "inline", uri: (id) => `#/components/schemas/${id}` });
  const tidied = Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, tidy(schema) as JsonSchema]));
  return hoistShared(tidied, io === "input" ? "" : "Output");
}

function inline(schema: z.ZodType): JsonSchema {
  return tidy(z.toJSONSchema(schema, { io: "input", target: "draft-2020-12", unrepresentable: "any" })) as JsonSchema;
}

/** The properties of a query schema; a union of objects (this or that filter) gives each branch's, all optional. */
function queryParameters(schema: z.ZodType): Operation["parameters"] {
  const json = inline(schema);
  const branches = (json.anyOf ?? json.oneOf) as JsonSchema[] | undefined;
  const objects = branches ?? [json];
  const params: NonNullable<Operation["parameters"]> = [];
  for (const object of objects) {
    const required = new Set(branches ? [] : ((object.required as string[]) ?? []));
    for (const [name, property] of Object.entries((object.properties ?? {}) as Record<string, JsonSchema>)) {
      if (params.some((p) => p.name === name)) continue;
      const { description, ...rest } = property;
      params.push({ name, in: "query", required: required.has(name), ...(description ? { description: String(description) } : {}), schema: rest });
    }
  }
  return params;
}

function pathParameters(schema: z.ZodObject): Operation["parameters"] {
  const json = inline(schema);
  return Object.entries((json.properties ?? {}) as Record<string, JsonSchema>).map(([name, property]) => {
    const { description, ...rest } = property;
    return { name, in: "path" as const, required: true, ...(description ? { description: String(description) } : {}), schema: rest };
  });
}

const ref = (id: string): JsonSchema => ({ $ref: `#/components/schemas/${id}` });

const SECURITY: Record<RouteSpec["access"], Record<string, string[]>[]> = {
  public: [],
  principal: [{ bearerKey: [] }, { sessionCookie: [] }],
  bearer: [{ bearerKey: [] }],
};

/** The refusals a route can give: its own, plus 400 (path checks run on every authenticated route), 401 and 413 for bodies. */
export function refusalsOf(route: RouteSpec): Refusal[] {
  const all = new Set<Refusal>(route.refusals);
  if (route.access !== "public") {
    all.add(400);
    all.add(401);
  }
  if ((route.method === "post" || route.method === "put" || route.method === "patch") && route.access !== "public") all.add(413);
  return [...all].sort((a, b) => a - b);
}

/** The whole document of the given endpoints. Pure: the same routes give the same document (the client generator relies on it). */
export function documentOf(routes: RouteSpec[]): OpenApiDocument {
  const inputs = z.registry<{ id: string }>();
  const outputs = z.registry<{ id: string }>();
  for (const [schema, id] of NAMED_OUTPUTS) outputs.add(schema, { id });
  const outputRef = (schema: z.ZodType, fallback: string) => {
    if (!outputs.has(schema)) outputs.add(schema, { id: fallback });
    return ref(outputs.get(schema)!.id);
  };

  const paths: OpenApiDocument["paths"] = {};
  for (const route of routes) {
    const id = operationIdOf(route);
    const Id = id[0].toUpperCase() + id.slice(1);
    const parameters = [...(route.params ? (pathParameters(route.params) ?? []) : []), ...(route.query ? (queryParameters(route.query) ?? []) : [])];
    const operation: Operation = {
      operationId: id,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: [route.tag],
      security: SECURITY[route.access],
      ...(parameters.length ? { parameters } : {}),
      responses: {},
    };
    if (route.body) {
      if (!inputs.has(route.body)) inputs.add(route.body, { id: `${Id}Body` });
      const bodyJson = inline(route.body);
      const required = Array.isArray(bodyJson.required) && bodyJson.required.length > 0;
      operation.requestBody = { required, content: { "application/json": { schema: ref(inputs.get(route.body)!.id) } } };
    }
    for (const answer of route.answers) {
      operation.responses[String(answer.status)] = {
        description: answer.description,
        ...(answer.schema
          ? { content: { [answer.contentType ?? "application/json"]: { schema: outputRef(answer.schema, `${Id}Response${answer.status === 200 ? "" : answer.status}`) } } }
          : {}),
      };
    }
    for (const status of refusalsOf(route)) {
      const schema = refusalSchema(status, route);
      operation.responses[String(status)] = {
        description: REFUSAL_TEXT[status],
        content: { "application/json": { schema: outputRef(schema, `${Id}Conflict`) } },
      };
    }
    paths[route.path] = { ...paths[route.path], [route.method]: operation };
  }

  return {
    openapi: "3.1.0",
    info: {
      title: "Quorum",
      version: API_VERSION,
      summary: "A hub where LLM agents work under hard gates and humans decide.",
      description:
        "Agents call with `Authorization: Bearer <key>`; humans with the session cookie of their sign-in link (a state-changing cookie request must be same-origin JSON). " +
        "JSON in and out; a refusal is `{error, message, …}` with the fields its code names.",
    },
    tags: Object.values(TAGS).map((name) => ({ name, description: TAG_TEXT[name] })),
    paths,
    components: {
      schemas: { ...convert(inputs, "input"), ...convert(outputs, "output") },
      securitySchemes: {
        bearerKey: { type: "http", scheme: "bearer", bearerFormat: "qk_…", description: "An agent's key (`quorum agent add`, or `quorum connect`)." },
        sessionCookie: { type: "apiKey", in: "cookie", name: SESSION_COOKIE, description: "A human's browser session, from a sign-in link." },
      },
    },
  };
}

const built = new WeakMap<RouteSpec[], OpenApiDocument>();

/** The document of a route list, built once per process (the router serves its own: GET /api/openapi.json). */
export function servedDocument(routes: RouteSpec[]): OpenApiDocument {
  let document = built.get(routes);
  if (!document) {
    document = documentOf(routes);
    built.set(routes, document);
  }
  return document;
}

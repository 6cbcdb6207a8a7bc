// Real answers match the OpenAPI document: every route handler is called (through test/api-catalog's
// fixtures) as an agent, a human and nobody, and each answer's status must be one the document lists for
// that operation, its body valid against the schema listed there (ajv, JSON Schema 2020-12). The refusals
// with fields of their own (stale, reserved, cycle) are provoked and checked too.
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../surfaces/http/api-document";
import type { OpenApiDocument } from "../surfaces/http/document";
import { discoverEndpoints, type Endpoint, makeTeam, type Reply, send, setups, type Team, type Who } from "./api-catalog";

const BASE = "https://quorum.invalid/openapi";
/**
 * Not REST answers: the MCP transport (JSON-RPC, its own conformance suite), A2A's (JSON-RPC whose refusals are
 * JSON-RPC errors; surfaces/a2a/*.test.ts drive it with the A2A project's client) and the event stream (headers only here).
 */
const SKIPPED = new Set(["POST /api/mcp", "POST /api/a2a", "GET /api/stream"]);

let doc: OpenApiDocument;
let ajv: Ajv2020;
let team: Team;
let endpoints: Endpoint[];
let setup: ReturnType<typeof setups>;

beforeAll(async () => {
  doc = buildOpenApiDocument();
  ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema({ $id: BASE, components: doc.components });
  endpoints = await discoverEndpoints();
  team = await makeTeam();
  setup = setups(team, new Map(endpoints.map((e) => [e.key, e])));
});

/** The problems with one answer, judged by the document; none when it conforms. */
function problems(endpoint: Endpoint, reply: Reply, who: string): string[] {
  const path = endpoint.route.replace(/\[(\w+)\]/g, "{$1}");
  const operation = doc.paths[path]?.[endpoint.method.toLowerCase()];
  const where = `${endpoint.key} as ${who} → ${reply.status}`;
  if (!operation) return [`${where}: not in the document`];
  const response = operation.responses[String(reply.status)];
  if (!response) return [`${where}: status not documented (${Object.keys(operation.responses).join(", ")})`];
  const media = Object.entries(response.content ?? {})[0];
  if (!media) return reply.body === undefined ? [] : [`${where}: a body where the document says none`];
  const [type, { schema }] = media;
  if (!reply.contentType.startsWith(type)) return [`${where}: content-type ${reply.contentType}, documented ${type}`];
  const ref = String((schema as { $ref?: string }).$ref ?? "");
  const validate = ajv.getSchema(`${BASE}${ref}`) ?? ajv.compile({ $ref: `${BASE}${ref}` });
  const values =
    type === "application/x-ndjson"
      ? String(reply.body ?? "")
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line))
      : [reply.body];
  return values.flatMap((value) => (validate(value) ? [] : [`${where}: ${ajv.errorsText(validate.errors, { dataVar: "body" })} in ${JSON.stringify(value).slice(0, 300)}`]));
}

describe("answers conform to the OpenAPI document", () => {
  it("for every route, as an agent, a human and nobody", async () => {
    const found: string[] = [];
    const checked = { answers: 0, success: 0 };
    const WHO: Who[] = ["agent", "human", "anonymous"];
    const runEndpoint = async (endpoint: Endpoint) => {
      const shared = endpoint.method === "GET" ? await setup[endpoint.key]() : null;
      for (const who of WHO) {
        const fixture = shared ?? (await setup[endpoint.key]());
        const reply = await send(team, endpoint, { who, params: fixture.params, body: fixture.body, query: fixture.query, cookie: fixture.cookie });
        checked.answers++;
        if (reply.status < 300) checked.success++;
        found.push(...problems(endpoint, reply, who));
      }
    };
    const runsAlone = (e: Endpoint) => e.key === "POST /api/tasks/claim-next" || e.route.startsWith("/api/reservations");
    const all = endpoints.filter((e) => !SKIPPED.has(e.key));
    const queue = all.filter((e) => !runsAlone(e));
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let e = queue.shift(); e; e = queue.shift()) await runEndpoint(e);
      }),
    );
    for (const e of all.filter(runsAlone)) await runEndpoint(e);
    expect(found).toEqual([]);
    // Most routes succeed for someone: the fixtures reach the success answers, not only refusals.
    expect(checked.success).toBeGreaterThan(all.length);
  }, 180_000);

  it("for the refusals with fields of their own: stale, reserved, cycle, invalid", async () => {
    const byKey = new Map(endpoints.map((e) => [e.key, e]));
    const call = async (who: Who, key: string, params: Record<string, string>, body: unknown) => {
      const endpoint = byKey.get(key)!;
      const reply = await send(team, endpoint, { who, params, body });
      return { endpoint, reply, who };
    };
    const found: string[] = [];
    const expectRefusal = async (pending: Promise<{ endpoint: Endpoint; reply: Reply; who: string }>, status: number, error: string) => {
      const { endpoint, reply, who } = await pending;
      expect((reply.body as { error?: string }).error, JSON.stringify(reply.body)).toBe(error);
      expect(reply.status).toBe(status);
      found.push(...problems(endpoint, reply, who));
    };
    // A room the agent has not read: its first post is stale.
    const room = `conformance-${Date.now().toString(36)}`;
    await call("human", "POST /api/rooms", {}, { name: room });
    await call("human", "POST /api/rooms/[room]/messages", { room }, { body: "welcome, read me first" });
    await expectRefusal(call("agent", "POST /api/rooms/[room]/messages", { room }, { body: "hello all" }), 409, "stale");
    // The same glob twice: the second is refused with its holders.
    const glob = `conformance/${Date.now().toString(36)}/**`;
    await call("other", "POST /api/reservations", {}, { patterns: [glob], reason: "editing" });
    await expectRefusal(call("agent", "POST /api/reservations", {}, { patterns: [glob], reason: "editing too" }), 409, "reserved");
    // A waits on B, then B on A: a cycle, with its path.
    const a = (await call("agent", "POST /api/commitments", {}, { what: "first half" })).reply.body as { id: string };
    const b = (await call("agent", "POST /api/commitments", {}, { what: "second half" })).reply.body as { id: string };
    for (const c of [a, b]) await call("agent", "POST /api/commitments/[id]/confirm", { id: c.id }, {});
    await call("agent", "POST /api/commitments/[id]/dependencies", { id: a.id }, { blockerId: b.id });
    await expectRefusal(call("agent", "POST /api/commitments/[id]/dependencies", { id: b.id }, { blockerId: a.id }), 409, "cycle");
    // A body the schema refuses: 400 with zod's issues.
    await expectRefusal(call("agent", "POST /api/tasks", {}, { title: "" }), 400, "invalid");
    expect(found).toEqual([]);
  });
});

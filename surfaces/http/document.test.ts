// The OpenAPI document covers every route handler under app/api (and nothing else), is valid OpenAPI 3.1
// by a real validator, and is what GET /api/openapi.json serves to anyone.
import SwaggerParser from "@apidevtools/swagger-parser";
import type { OpenAPIV3_1 } from "openapi-types";
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
const GET = apiHandler("GET", "/api/openapi.json");
import { discoverEndpoints, type Endpoint } from "../../test/api-catalog";
import { buildOpenApiDocument } from "./api-document";
import type { OpenApiDocument } from "./document";
import { apiHandler } from "../../test/api";

/** `POST /api/tasks/[id]/claim` → `post /api/tasks/{id}/claim`, as the document names it. */
const documentKey = (e: Endpoint) => `${e.method.toLowerCase()} ${e.route.replace(/\[(\w+)\]/g, "{$1}")}`;

interface ReadmeOperation {
  /** The code span as README writes it. */
  span: string;
  methods: string[];
  /** The document paths it may stand for (a `…/x` span names a path relative to the one before it). */
  paths: string[];
  /** A span that names its methods names each of them; a `…/x` span inherits the ones before it, of which one will do. */
  everyMethod: boolean;
}

/**
 * The operations docs/API.md's HTTP API table names, one per code span: `GET·POST /api/rooms/:room/cursor {seq}`,
 * or `…/presence`, read against the path of the span before it (any of its prefixes) with that span's methods.
 */
function readmeOperations(): ReadmeOperation[] {
  const readme = readFileSync(new URL("../../docs/API.md", import.meta.url), "utf8");
  const section = readme.slice(readme.indexOf("## The HTTP API"), readme.indexOf("## Bring your own agent"));
  const toDocument = (path: string) => path.replace(/[?{].*$/, "").replace(/:(\w+)/g, "{$1}");
  const operations: ReadmeOperation[] = [];
  let last: { methods: string[]; path: string } | null = null;
  for (const line of section.split("\n").filter((l) => l.startsWith("|"))) {
    for (const [, span] of line.matchAll(/`([^`]+)`/g)) {
      const full = /^((?:GET|POST|PUT|PATCH|DELETE)(?:·(?:GET|POST|PUT|PATCH|DELETE))*) (\/\S+)/.exec(span);
      const relative = /^…(\/\S+)/.exec(span);
      if (full) {
        last = { methods: full[1].toLowerCase().split("·"), path: toDocument(full[2]) };
        operations.push({ span, methods: last.methods, paths: [last.path], everyMethod: true });
      } else if (relative && last) {
        const segments = last.path.split("/");
        const [head, alternatives] = [relative[1].replace(/[^/]*$/, ""), (relative[1].split("/").pop() ?? "").split("·")];
        for (const alternative of alternatives) {
          const tail = toDocument(`${head}${alternative}`);
          operations.push({
            span: `${span} (${alternative})`,
            methods: last.methods,
            paths: segments.map((_, n) => `${segments.slice(0, n + 1).join("/")}${tail}`),
            everyMethod: false,
          });
        }
      }
    }
  }
  return operations;
}

let endpoints: Endpoint[];
let doc: OpenApiDocument;

beforeAll(async () => {
  endpoints = await discoverEndpoints();
  doc = buildOpenApiDocument();
});

describe("the OpenAPI document", () => {
  it("has an operation for every route handler, and none for a route that is gone", () => {
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method} ${path}`));
    const served = endpoints.map(documentKey);
    expect(
      served.filter((k) => !documented.includes(k)),
      "routes missing from surfaces/http/routes/",
    ).toEqual([]);
    expect(
      documented.filter((k) => !served.includes(k)),
      "operations without a route handler",
    ).toEqual([]);
  });

  it("is valid OpenAPI 3.1 (swagger-parser), every $ref resolving", async () => {
    const copy = structuredClone(doc) as unknown as OpenAPIV3_1.Document;
    const validated = (await SwaggerParser.validate(copy)) as OpenAPIV3_1.Document;
    expect(validated.openapi).toBe("3.1.0");
    const operationIds = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((o) => o.operationId));
    expect(new Set(operationIds).size).toBe(operationIds.length);
  });

  it("describes every refusal body with its fields: stale (unread, holdToken), rate_limited (retryAfterMs), cycle (path), reserved (holders), invalid (issues)", () => {
    const schemas = doc.components.schemas as Record<string, { properties?: Record<string, unknown>; required?: string[] }>;
    expect(schemas.Stale.required).toEqual(expect.arrayContaining(["error", "message", "unread", "holdToken"]));
    expect(schemas.RateLimited.required).toContain("retryAfterMs");
    expect(schemas.Cycle.required).toContain("path");
    expect(schemas.Reserved.required).toContain("holders");
    expect(Object.keys(schemas.InvalidRequest.properties ?? {})).toContain("issues");
    const post = doc.paths["/api/rooms/{room}/messages"].post;
    const target = (status: string) => {
      const content = post.responses[status].content;
      if (!content) throw new Error(`${status} has no body`);
      const { $ref } = content["application/json"].schema as { $ref: string };
      return JSON.stringify(doc.components.schemas[$ref.split("/").pop()!]);
    };
    expect(target("409")).toContain("#/components/schemas/Stale");
    expect(post.responses["429"].content).toEqual({ "application/json": { schema: { $ref: "#/components/schemas/RateLimited" } } });
    expect(doc.components.securitySchemes).toMatchObject({ bearerKey: { type: "http", scheme: "bearer" }, sessionCookie: { type: "apiKey", in: "cookie" } });
  });

  it("reads each request with the route's own schema: create_task's title refuses an empty string", () => {
    const body = doc.components.schemas.PostTasksBody as { properties: Record<string, Record<string, unknown>>; required: string[]; additionalProperties: unknown };
    expect(body.required).toContain("title");
    expect(body.properties.title.minLength).toBe(1);
    expect(body.additionalProperties).toBe(false);
  });

  it("documents every operation docs/API.md's table lists (the room cursor's GET was once missing)", () => {
    const documented = (path: string, method: string) => doc.paths[path]?.[method as keyof (typeof doc.paths)[string]] !== undefined;
    const missing = readmeOperations().filter(({ methods, paths, everyMethod }) =>
      everyMethod ? !methods.every((method) => documented(paths[0], method)) : !paths.some((path) => methods.some((method) => documented(path, method))),
    );
    expect(missing.map((op) => op.span)).toEqual([]);
  });

  it("is served at GET /api/openapi.json without credentials", async () => {
    const response = await GET(new Request("http://localhost/api/openapi.json"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(doc)));
  });
});

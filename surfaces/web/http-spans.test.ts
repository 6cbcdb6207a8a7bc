// Server spans of the API over OTLP/HTTP in JSON (OTEL_EXPORTER_OTLP_PROTOCOL=http/json), received at a receiver
// of our own, on `quorum start`'s composition (surfaces/web/dispatch.ts): `{method} {route}` by the matched pattern, the
// HTTP conventions' attributes, a caller's traceparent honoured, a 5xx an error and a 4xx not.
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Tracing } from "@/domain/telemetry/tracing";
import type { OtlpReceiver } from "../../test/fixtures/otlp-receiver";
import { traceIntoReceiver } from "../../test/fixtures/tracing";
import { makeAgent } from "../../test/helpers";
import { z } from "zod";
import { createApiRouter as createRouter } from "../http/router";
import { ROUTES } from "../http/routes";
import { endpoint, TAGS } from "../http/routes/route-spec";
import { createApiRouter } from "./api-router";
import { dispatch } from "./dispatch";
import { httpSpans } from "./http-spans";
import { routeMatched } from "./request-watch";

const SERVER = 2;
const ERROR = 2;

/** An endpoint that fails as a handler bug would, to see a 500's span. */
const boom = endpoint({
  method: "get",
  path: "/api/probe/boom",
  tag: TAGS.health,
  summary: "boom",
  access: "public",
  answers: [{ status: 200, description: "never", schema: z.unknown() }],
  refusals: [],
  run: async () => {
    throw new Error("a handler bug (expected by this test)");
  },
});

let receiver: OtlpReceiver;
let tracing: Tracing;
let stopTracing: () => Promise<void>;
let server: Server;
let base: string;

beforeAll(async () => {
  ({ receiver, tracing, close: stopTracing } = await traceIntoReceiver("web", "http/json"));
  const api = createApiRouter(createRouter([...ROUTES, boom]), routeMatched);
  server = createServer(dispatch({ api, pages: (_req, res) => res.writeHead(404).end(), spans: httpSpans() }));
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((closed) => server?.close(closed));
  await stopTracing?.();
});

describe("server spans of the API", () => {
  it("names each by method and route pattern with the HTTP conventions' attributes, as the caller's child, 5xx an error", async () => {
    const agent = await makeAgent();
    const id = randomUUID();
    const callerTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
    const callerSpan = "00f067aa0ba902b7";
    const missing = await fetch(`${base}/api/tasks/${id}`, { headers: { authorization: `Bearer ${agent.key}`, traceparent: `00-${callerTrace}-${callerSpan}-01` } });
    expect(missing.status).toBe(404);
    expect((await fetch(`${base}/api/probe/boom`)).status).toBe(500);
    await tracing.flush();

    const task = receiver.spans.find((s) => s.attributes["http.route"] === "/api/tasks/[id]");
    expect(task).toMatchObject({ name: "GET /api/tasks/[id]", kind: SERVER, traceId: callerTrace, parentSpanId: callerSpan, encoding: "json" });
    expect(task?.attributes).toMatchObject({
      "http.request.method": "GET",
      "http.route": "/api/tasks/[id]",
      "http.response.status_code": 404,
      "url.path": `/api/tasks/${id}`,
      "url.scheme": "http",
      "server.address": "127.0.0.1",
    });
    // A refusal is the client's: the span is not an error.
    expect(task?.status.code).not.toBe(ERROR);
    const failed = receiver.spans.find((s) => s.attributes["http.route"] === "/api/probe/boom");
    expect(failed).toMatchObject({ name: "GET /api/probe/boom", parentSpanId: "", status: { code: ERROR }, attributes: { "http.response.status_code": 500, "error.type": "500" } });
    expect(failed?.resource).toMatchObject({ "service.name": "quorum", "quorum.process": "web" });
    expect(receiver.contentTypes.every((type) => type.startsWith("application/json"))).toBe(true);
  });
});

// The service itself: its liveness, and this document.
import { checkHealth } from "@/domain/health";
import { servedDocument } from "../document";
import { z } from "zod";
import * as v from "../views";
import { ok, type RouteSpec, TAGS, endpoint } from "./route-spec";

export const SERVICE_ROUTES: RouteSpec[] = [
  {
    method: "get",
    path: "/api/health",
    tag: TAGS.health,
    summary: "Liveness and database check",
    access: "public",
    answers: ok(v.health),
    refusals: [],
    run: async ({ ctx }) => {
      const { db } = ctx;
      return await checkHealth(db);
    },
  },
  endpoint({
    method: "get",
    path: "/metrics",
    tag: TAGS.health,
    summary: "Prometheus metrics (text format): the hub's counters and gauges, this process's latency by route",
    description:
      "Read without a key from this machine (a loopback socket no proxy relayed; `next start` hands a route no socket, so there it needs one), " +
      "otherwise with `Authorization: Bearer $QUORUM_METRICS_TOKEN` or a human's session; an agent's key is 403. docs/OPERATING.md, Operating Quorum, lists the series.",
    access: "principal",
    answers: [{ status: 200, description: "The exposition, Prometheus text format 0.0.4", contentType: "text/plain; version=0.0.4; charset=utf-8", schema: z.string() }],
    refusals: [403],
  }),
  endpoint({
    method: "get",
    path: "/api/openapi.json",
    tag: TAGS.surfaces,
    summary: "This document: OpenAPI 3.1, generated from the routes' own zod schemas",
    access: "public",
    answers: ok(z.looseObject({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) }), "The OpenAPI document"),
    refusals: [],
    run: async ({ routes }) => Response.json(servedDocument(routes), { headers: { "Cache-Control": "no-cache" } }),
  }),
];

// The service itself: its liveness, and this document.
import { z } from "zod";
import * as v from "../views";
import { ok, type RouteSpec, TAGS } from "./route-spec";

export const SERVICE_ROUTES: RouteSpec[] = [
  { method: "get", path: "/api/health", tag: TAGS.health, summary: "Liveness and database check", access: "public", answers: ok(v.health), refusals: [] },
  {
    method: "get",
    path: "/api/openapi.json",
    tag: TAGS.surfaces,
    summary: "This document: OpenAPI 3.1, generated from the routes' own zod schemas",
    access: "public",
    answers: ok(z.looseObject({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) }), "The OpenAPI document"),
    refusals: [],
  },
];

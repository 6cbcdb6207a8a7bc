// The experiments' saved tables: what `quorum experiment NAME` measured, on a scratch database of its own.
import * as v from "../views";
import { ok, type RouteSpec, TAGS } from "./route-spec";

export const EXPERIMENT_ROUTES: RouteSpec[] = [
  {
    method: "get",
    path: "/api/experiments",
    tag: TAGS.experiments,
    summary: "The experiments' saved tables, newest first: when each ran, its parameters, the command that reproduces it, its columns, rows and notes",
    access: "principal",
    answers: ok(v.savedExperiments),
    refusals: [],
  },
];

// The built-in team's flights: starting one on your repository, reading them, retrying a goal handed back,
// and how the team thinks.
import { z } from "zod";
import { retryFlightInput } from "@/server/flights/hand-back";
import { inspectRepositoryQuery } from "@/server/flights/inspect";
import { startFlightInput } from "@/server/flights/launch";
import * as v from "../views";
import { created, ok, type RouteSpec, TAGS, uuidId } from "./route-spec";

export const FLIGHT_ROUTES: RouteSpec[] = [
  {
    method: "get",
    path: "/api/flights",
    tag: TAGS.runs,
    summary: "The built-in team's flights, newest first: status, plan, tasks, spend and branch",
    access: "principal",
    answers: ok(v.flightList),
    refusals: [],
  },
  {
    method: "post",
    path: "/api/flights",
    tag: TAGS.runs,
    summary:
      "Start a flight on your repository (humans): the team clones it, works each task on its own branch and integrates into `quorum/flight-<n>` there, never touching your checkout; the test command is detected when absent",
    access: "principal",
    body: startFlightInput,
    answers: created(v.flight),
    refusals: [403, 409],
    otherConflicts: ["no_team", "scripted_team"],
  },
  {
    method: "get",
    path: "/api/flights/inspect",
    tag: TAGS.runs,
    summary:
      "What a flight on this repository would start from (humans): its top folder, HEAD, branch and the detected test command; 400 with the reason for a path that is no git repository with a commit",
    access: "principal",
    query: inspectRepositoryQuery,
    answers: ok(v.repositoryInspection),
    refusals: [403],
  },
  {
    method: "get",
    path: "/api/flights/{id}",
    tag: TAGS.runs,
    summary: "One flight, by id or number",
    access: "principal",
    params: z.strictObject({ id: z.string().min(1).max(64) }),
    answers: ok(v.flight),
    refusals: [404],
  },
  {
    method: "post",
    path: "/api/flights/{id}/retry",
    tag: TAGS.runs,
    summary: "Retry a goal handed back after its model failed, live or scripted (the goal's human)",
    access: "principal",
    params: uuidId,
    body: retryFlightInput,
    answers: ok(v.anyObject),
    refusals: [403, 404, 409],
    otherConflicts: ["not_handed_back", "no_team"],
  },
  {
    method: "get",
    path: "/api/team",
    tag: TAGS.runs,
    summary: "How the built-in team thinks (scripted or a model)",
    access: "principal",
    answers: ok(v.anyObject),
    refusals: [],
  },
];

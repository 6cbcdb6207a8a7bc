// The experiments' saved tables: what `quorum experiment NAME` measured on this hub, on a scratch database of its own.
import { listSavedExperiments } from "@/domain/experiments/saved";
import { experimentsFolder } from "@/domain/config";
import * as v from "../views";
import { ok, type RouteSpec, TAGS, endpoint } from "./route-spec";

export const EXPERIMENT_ROUTES: RouteSpec[] = [
  endpoint({
    method: "get",
    path: "/api/experiments",
    tag: TAGS.experiments,
    summary: "The experiments' tables saved on this hub, newest first: when each ran, its parameters, the command that reproduces it, its columns, rows and notes",
    access: "principal",
    answers: ok(v.savedExperiments),
    refusals: [],
    // The hub's own folder, where the CLI saves them: the tables that came with the repository are not this hub's runs.
    run: async () => listSavedExperiments(experimentsFolder()),
  }),
];

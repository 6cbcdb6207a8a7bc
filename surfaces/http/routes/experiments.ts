// The experiments' saved tables: what `quorum experiment NAME` measured, on a scratch database of its own.
import { listSavedExperiments } from "@/domain/experiments/saved";
import { experimentsFolderIn } from "@/domain/config";
import * as v from "../views";
import { ok, type RouteSpec, TAGS, endpoint } from "./route-spec";

export const EXPERIMENT_ROUTES: RouteSpec[] = [
  endpoint({
    method: "get",
    path: "/api/experiments",
    tag: TAGS.experiments,
    summary: "The experiments' saved tables, newest first: when each ran, its parameters, the command that reproduces it, its columns, rows and notes",
    access: "principal",
    answers: ok(v.savedExperiments),
    refusals: [],
    run: async () => {
      // `quorum start` runs the app in Quorum's folder, where the CLI saves them too.
      return listSavedExperiments(experimentsFolderIn(process.cwd()));
    },
  }),
];

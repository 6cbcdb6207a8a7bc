// GET /api/experiments: the experiments' saved tables (`quorum experiment NAME`), newest first, each with when it
// ran, its parameters and the command that reproduces it. Read from the results folder, never the hub's database.
import { experimentsFolderIn } from "@/server/config";
import { listSavedExperiments } from "@/server/experiments/saved";
import { callerOf, handle, json } from "../_lib/http";

export const dynamic = "force-dynamic";

export function GET(req: Request) {
  return handle(async (ctx) => {
    await callerOf(req, ctx);
    // `quorum start` runs the app in Quorum's folder, where the CLI saves them too.
    return json(listSavedExperiments(experimentsFolderIn(process.cwd())));
  });
}

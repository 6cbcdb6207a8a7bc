// GET /api/journal/runs/:id/replay: re-lives the run from its journal alone (the runtime's replay, in
// memory, writing nothing) and says whether the fresh events are identical to the recorded ones.
import { z } from "zod";
import { replayRun } from "@/agents/replay";
import { loadReplayableRun } from "@/server/runs/run-journal";
import { runIdSchema } from "@/server/journal/load";
import { callerOf, handle, json } from "../../../../_lib/http";
import { readParams } from "../../../_lib/params";

export const dynamic = "force-dynamic";

export function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const { id } = await readParams(params, z.strictObject({ id: runIdSchema }));
    return json(await replayRun(await loadReplayableRun(ctx.db, id, caller)));
  });
}

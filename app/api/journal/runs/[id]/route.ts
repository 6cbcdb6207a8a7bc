// GET /api/journal/runs/:id: the run's timeline — turns, model calls, tool calls with results, tokens.
import { z } from "zod";
import { loadRunTimeline } from "@/server/runs/run-journal";
import { runIdSchema } from "@/server/journal/load";
import { callerOf, handle, json } from "../../../_lib/http";
import { readParams } from "../../_lib/params";

export const dynamic = "force-dynamic";

export function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const { id } = await readParams(params, z.strictObject({ id: runIdSchema }));
    return json(await loadRunTimeline(ctx.db, id, caller));
  });
}

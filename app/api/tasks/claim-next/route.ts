import { claimNextTask, claimNextTaskInput } from "@/server/tasks/claim-next";
import { callerOf, handle, json, readBody } from "../../_lib/http";

export const dynamic = "force-dynamic";

/** 200 with the claimed task, or 204 when nothing is ready for the caller. */
export function POST(req: Request) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    await readBody(req, claimNextTaskInput);
    const task = await claimNextTask(ctx.db, caller, ctx.clock);
    return task ? json(task) : new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
  });
}

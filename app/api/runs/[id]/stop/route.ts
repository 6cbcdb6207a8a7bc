// POST /api/runs/:id/stop {reason}: the operator stop, honoured at the run's next turn boundary.
import { requestStop, requestStopInput } from "@/server/runs/request-stop";
import { callerOf, handle, json, readBody } from "../../../_lib/http";

export const dynamic = "force-dynamic";

export function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const input = await readBody(req, requestStopInput);
    const { id } = await params;
    return json(await requestStop(ctx.db, caller, id, input, ctx.clock), 202);
  });
}

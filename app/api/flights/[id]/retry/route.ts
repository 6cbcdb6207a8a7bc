import { retryFlight, retryFlightInput } from "@/server/flights/hand-back";
import { callerOf, handle, json, readBody } from "../../../_lib/http";

export const dynamic = "force-dynamic";

/** The human's answer to a goal handed back after its model failed: try again, live or scripted. */
export function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const input = await readBody(req, retryFlightInput);
    const { id } = await params;
    return json(await retryFlight(ctx.db, caller, id, input, ctx.clock));
  });
}

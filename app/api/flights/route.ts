import { startFlightInput } from "@/server/flights/launch";
import { startFlight } from "@/server/flights/start";
import { listFlights } from "@/server/flights/view";
import { callerOf, handle, json, readBody } from "../_lib/http";

export const dynamic = "force-dynamic";

export function GET(req: Request) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    return json(await listFlights(ctx.db, caller));
  });
}

/** A human's goal on a repository of theirs: the team takes it (201 with the flight). */
export function POST(req: Request) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const input = await readBody(req, startFlightInput);
    return json(await startFlight(ctx.db, caller, input, ctx.clock), 201);
  });
}

// GET /api/reservations (live ones by default) · POST /api/reservations: reserve glob patterns, 409 with the holders.
import { listReservations, listReservationsQuery } from "@/server/reservations/list";
import { reservePaths, reservePathsInput } from "@/server/reservations/reserve";
import { callerOf, handle, json, readBody, readQuery } from "../_lib/http";

export const dynamic = "force-dynamic";

export function GET(req: Request) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    return json(await listReservations(ctx.db, caller, readQuery(req, listReservationsQuery), ctx.clock.now()));
  });
}

export function POST(req: Request) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const input = await readBody(req, reservePathsInput);
    return json(await reservePaths(ctx.db, caller, input, ctx.clock), 201);
  });
}

// POST /api/reservations/:id/renew: the holder renews its lease { fence, ttlSeconds? }.
import { renewReservation, renewReservationInput } from "@/server/reservations/renew";
import { callerOf, handle, json, readBody } from "../../../_lib/http";

export const dynamic = "force-dynamic";

export function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const input = await readBody(req, renewReservationInput);
    const { id } = await params;
    return json(await renewReservation(ctx.db, caller, id, input, ctx.clock));
  });
}

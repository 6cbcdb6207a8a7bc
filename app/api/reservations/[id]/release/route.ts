// POST /api/reservations/:id/release: the holder releases it { fence }.
import { releaseReservation, releaseReservationInput } from "@/server/reservations/release";
import { callerOf, handle, json, readBody } from "../../../_lib/http";

export const dynamic = "force-dynamic";

export function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const input = await readBody(req, releaseReservationInput);
    const { id } = await params;
    return json(await releaseReservation(ctx.db, caller, id, input, ctx.clock));
  });
}

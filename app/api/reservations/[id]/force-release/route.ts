// POST /api/reservations/:id/force-release: a human ends it { reason }; the holder is told.
import { forceReleaseReservation, forceReleaseInput } from "@/server/reservations/force-release";
import { callerOf, handle, json, readBody } from "../../../_lib/http";

export const dynamic = "force-dynamic";

export function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const input = await readBody(req, forceReleaseInput);
    const { id } = await params;
    return json(await forceReleaseReservation(ctx.db, caller, id, input, ctx.clock));
  });
}

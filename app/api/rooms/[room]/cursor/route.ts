import { advanceCursor, advanceCursorInput, readCursor } from "@/server/relay/cursor";
import { callerOf, handle, json, readBody } from "../../../_lib/http";

export const dynamic = "force-dynamic";

interface Params {
  params: Promise<{ room: string }>;
}

export function GET(req: Request, { params }: Params) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const { room } = await params;
    return json(await readCursor(ctx.db, caller, room));
  });
}

/** Acks the room up to `seq`; the only way a seen-cursor moves. */
export function POST(req: Request, { params }: Params) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const input = await readBody(req, advanceCursorInput);
    const { room } = await params;
    return json(await advanceCursor(ctx.db, caller, room, input, ctx.clock));
  });
}

import { listRoomPresence } from "@/server/relay/presence";
import { callerOf, handle, json } from "../../../_lib/http";

export const dynamic = "force-dynamic";

/** Who is present, with roles, and which agents are focusing on a task. */
export function GET(req: Request, { params }: { params: Promise<{ room: string }> }) {
  return handle(async (ctx) => {
    await callerOf(req, ctx);
    const { room } = await params;
    return json({ items: await listRoomPresence(ctx.db, room, ctx.clock) });
  });
}

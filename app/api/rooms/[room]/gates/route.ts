import { gateLogQuery, listGateRejections } from "@/server/relay/gate-log";
import { callerOf, handle, json, readQuery } from "../../../_lib/http";

export const dynamic = "force-dynamic";

/** The room's recent gate rejections (GateRejected events), newest first. */
export function GET(req: Request, { params }: { params: Promise<{ room: string }> }) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const query = readQuery(req, gateLogQuery);
    const { room } = await params;
    return json(await listGateRejections(ctx.db, caller, room, query));
  });
}

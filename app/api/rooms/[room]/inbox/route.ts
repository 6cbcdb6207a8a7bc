import { inboxQuery, readInbox } from "@/server/relay/inbox";
import { callerOf, handle, json, readQuery } from "../../../_lib/http";

export const dynamic = "force-dynamic";

/** The caller's deliverable, unacked mail in this room (broadcasts and what is addressed to it). */
export function GET(req: Request, { params }: { params: Promise<{ room: string }> }) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const query = readQuery(req, inboxQuery);
    const { room } = await params;
    return json(await readInbox(ctx.db, caller, room, query));
  });
}

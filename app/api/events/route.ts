// GET /api/events?after=&timeoutSeconds=&kinds=: the bounded long-poll for news (MCP's wait_for_events).
import { waitForEvents, waitForEventsQuery } from "@/server/journal/wait-for-events";
import { callerOf, handle, json, readQuery } from "../_lib/http";

export const dynamic = "force-dynamic";

export function GET(req: Request) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const query = readQuery(req, waitForEventsQuery);
    return json(await waitForEvents(ctx.db, caller, query, ctx.subscribe, req.signal));
  });
}

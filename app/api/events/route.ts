// GET /api/events?after=&timeoutSeconds=&kinds=: the bounded long-poll for news (MCP's wait_for_events).
import { getConnection } from "@/db/client";
import { subscribeToEvents } from "@/server/journal/listen";
import { waitForEvents, waitForEventsQuery } from "@/server/journal/wait-for-events";
import { callerOf, handle, json, readQuery } from "../_lib/http";

export const dynamic = "force-dynamic";

export function GET(req: Request) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const query = readQuery(req, waitForEventsQuery);
    const subscribe = (wake: () => void) => subscribeToEvents(getConnection().sql, wake);
    return json(await waitForEvents(ctx.db, caller, query, subscribe, req.signal));
  });
}

// Server-Sent Events: every committed journal event the caller may see, live, with catch-up from Last-Event-ID.
import { openEventStream } from "@/server/journal/stream";
import { callerOf, handle, optionalCallerOf } from "../_lib/http";

export const dynamic = "force-dynamic";

export function GET(req: Request) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const lastId = Number(req.headers.get("last-event-id") ?? new URL(req.url).searchParams.get("after") ?? Number.NaN);
    const stillAuthenticated = async () => (await optionalCallerOf(req, ctx))?.id === caller.id;
    const stream = openEventStream(ctx, caller, { after: Number.isInteger(lastId) && lastId >= 0 ? lastId : null, signal: req.signal, stillAuthenticated });
    return new Response(stream, {
      headers: {
        "Content-Type": "text/event-stream",
        "Cache-Control": "no-cache, no-transform",
        Connection: "keep-alive",
        "X-Accel-Buffering": "no",
      },
    });
  });
}

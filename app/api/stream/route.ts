// Server-Sent Events: every committed journal event, live, with catch-up from Last-Event-ID.
import { listJournal } from "@/server/journal/list";
import { noticeOf, type EventNotice } from "@/server/journal/listen";
import { callerOf, handle } from "../_lib/http";

export const dynamic = "force-dynamic";

const KEEPALIVE_MS = 15_000;
const CATCH_UP_LIMIT = 500;

function frame(notice: EventNotice): string {
  return `id: ${notice.id}\nevent: journal\ndata: ${JSON.stringify(notice)}\n\n`;
}

export function GET(req: Request) {
  return handle(async (ctx) => {
    await callerOf(req, ctx);
    const lastId = Number(req.headers.get("last-event-id") ?? new URL(req.url).searchParams.get("after") ?? NaN);
    const encoder = new TextEncoder();
    let cleanup = () => {};
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        const send = (text: string) => {
          try {
            controller.enqueue(encoder.encode(text));
          } catch {
            cleanup();
          }
        };
        const unsubscribe = await ctx.subscribe((notice) => send(frame(notice)));
        const keepalive = setInterval(() => send(": keepalive\n\n"), KEEPALIVE_MS);
        cleanup = () => {
          clearInterval(keepalive);
          unsubscribe();
        };
        req.signal.addEventListener("abort", () => {
          cleanup();
          try {
            controller.close();
          } catch {
            // already closed
          }
        });
        // LISTEN is active from here on: tell the client, then replay what it missed while away.
        send(`event: ready\ndata: {}\n\n`);
        if (Number.isInteger(lastId) && lastId >= 0) {
          const missed = await listJournal(ctx.db, { after: lastId, limit: CATCH_UP_LIMIT, unsettled: true });
          for (const e of missed.items) {
            send(frame(noticeOf(e)));
          }
        }
      },
      cancel() {
        cleanup();
      },
    });
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

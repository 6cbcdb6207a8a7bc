// GET /api/journal/export?run=ID | ?task=ID: the events as JSON Lines, streamed, as a download.
import { exportFileName, exportQuery, openExport } from "@/server/journal/export";
import { callerOf, handle, readQuery } from "../../_lib/http";

export const dynamic = "force-dynamic";

export function GET(req: Request) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const query = readQuery(req, exportQuery);
    const lines = await openExport(ctx.db, query, caller);
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await lines.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
      async cancel() {
        await lines.return(undefined);
      },
    });
    return new Response(body, {
      headers: {
        "Content-Type": "application/x-ndjson; charset=utf-8",
        "Content-Disposition": `attachment; filename="${exportFileName(query)}"`,
        "Cache-Control": "no-store",
      },
    });
  });
}

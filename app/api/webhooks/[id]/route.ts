// DELETE /api/webhooks/:id: a human removes an endpoint; it gets nothing more.
import { removeWebhook } from "@/server/webhooks/manage";
import { callerOf, handle } from "../../_lib/http";

export const dynamic = "force-dynamic";

export function DELETE(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const { id } = await params;
    await removeWebhook(ctx.db, caller, id, ctx.clock);
    return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
  });
}

// POST /api/webhooks/:id/test: a human queues a signed `webhook.test` delivery; 202 with its webhook-id.
import { z } from "zod";
import { queueTestDelivery } from "@/server/webhooks/manage";
import { callerOf, handle, json, readBody } from "../../../_lib/http";

export const dynamic = "force-dynamic";

export function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    await readBody(req, z.strictObject({}));
    const { id } = await params;
    return json(await queueTestDelivery(ctx.db, caller, id, ctx.clock), 202);
  });
}

// GET /api/webhooks: every endpoint with its recent deliveries · POST: register one { url, events, description? },
// 201 with its secret (shown this once). Humans only.
import { addWebhook, addWebhookInput, listWebhooks } from "@/server/webhooks/manage";
import { callerOf, handle, json, readBody } from "../_lib/http";

export const dynamic = "force-dynamic";

export function GET(req: Request) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    return json(await listWebhooks(ctx.db, caller));
  });
}

export function POST(req: Request) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const input = await readBody(req, addWebhookInput);
    return json(await addWebhook(ctx.db, caller, input, ctx.clock), 201);
  });
}

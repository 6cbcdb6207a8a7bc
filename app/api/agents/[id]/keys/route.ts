// POST /api/agents/:id/keys: a human rotates an agent's key — a new one, shown once, and every old one revoked
// at once. DELETE: a human revokes all of its keys. `:id` is the agent's id or name.
import { issuedKeyView, revokeAgentKeys, rotateAgentKey, rotateKeyInput } from "@/server/principals/keys";
import { callerOf, handle, json, readBody } from "../../../_lib/http";

export const dynamic = "force-dynamic";

interface Params {
  params: Promise<{ id: string }>;
}

export function POST(req: Request, { params }: Params) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    await readBody(req, rotateKeyInput);
    const { id } = await params;
    return json(issuedKeyView(await rotateAgentKey(ctx.db, caller, id, ctx.clock)), 201);
  });
}

export function DELETE(req: Request, { params }: Params) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const { id } = await params;
    await revokeAgentKeys(ctx.db, caller, id, ctx.clock);
    return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
  });
}

import { flushAgentDigest, flushDigestInput, getAgentDigest } from "@/server/relay/agent-digest";
import { callerOf, handle, json, readBody } from "../../../_lib/http";

export const dynamic = "force-dynamic";

interface Params {
  params: Promise<{ id: string }>;
}

/** What the agent's focus-window digest holds (the agent itself, or a human). */
export function GET(req: Request, { params }: Params) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const { id } = await params;
    return json(await getAgentDigest(ctx.db, caller, id));
  });
}

/** Flush: deliver what the digest holds now as one batch; the focus window stays open. */
export function POST(req: Request, { params }: Params) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    await readBody(req, flushDigestInput);
    const { id } = await params;
    return json(await flushAgentDigest(ctx.db, caller, id, ctx.clock));
  });
}

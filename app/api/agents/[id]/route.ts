// GET /api/agents/:id: one agent — presence, lease, load, success rate, spend, budgets, gate rejections.
import { z } from "zod";
import { priceSettings } from "@/server/config";
import { getAgentDetail } from "@/server/roster/agent-detail";
import { callerOf, handle, json } from "../../_lib/http";
import { readParams } from "../../journal/_lib/params";

export const dynamic = "force-dynamic";

export function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const { id } = await readParams(params, z.strictObject({ id: z.uuid() }));
    return json(await getAgentDetail(ctx.db, ctx.clock, priceSettings().prices, id, caller));
  });
}

// GET /api/agents/:id/runs?before=&limit=: the agent's runs, newest first, with status, tokens and cost.
import { z } from "zod";
import { priceSettings } from "@/server/config";
import { agentRunsQuery, listBillRuns } from "@/server/bill/recent";
import { requireAgent } from "@/server/roster/agent-detail";
import { callerOf, handle, json, readQuery } from "../../../_lib/http";
import { readParams } from "../../../journal/_lib/params";

export const dynamic = "force-dynamic";

export function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async (ctx) => {
    await callerOf(req, ctx);
    const { id } = await readParams(params, z.strictObject({ id: z.uuid() }));
    const query = readQuery(req, agentRunsQuery);
    await requireAgent(ctx.db, id);
    return json(await listBillRuns(ctx.db, priceSettings().prices, { ...query, agent: id }));
  });
}

// POST /api/agents/:id/flight-allowance {tokens}: a human allows an agent to start flights whose allowances
// take up to `tokens` in all (0 stops it). `:id` is the agent's id or name.
import { setFlightAllowance, setFlightAllowanceInput } from "@/server/flights/agent-allowance";
import { callerOf, handle, json, readBody } from "../../../_lib/http";

export const dynamic = "force-dynamic";

export function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const input = await readBody(req, setFlightAllowanceInput);
    const { id } = await params;
    return json(await setFlightAllowance(ctx.db, caller, id, input, ctx.clock));
  });
}

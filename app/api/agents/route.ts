import { createAgent, createAgentInput } from "@/server/principals/create-principal";
import { priceSettings } from "@/server/config";
import { listRoster } from "@/server/roster/roster";
import { callerOf, handle, json, readBody } from "../_lib/http";

export const dynamic = "force-dynamic";

/** The roster: agents and humans with presence (humans included so the room can show who is here);
 * agents also with their lease, load, success rate, spend and budget left. */
export function GET(req: Request) {
  return handle(async (ctx) => {
    await callerOf(req, ctx);
    return json({ items: await listRoster(ctx.db, ctx.clock, priceSettings().prices) });
  });
}

export function POST(req: Request) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const input = await readBody(req, createAgentInput);
    const agent = await createAgent(ctx.db, caller, input, ctx.clock);
    return json({ id: agent.id, name: agent.name, role: agent.role, key: agent.key }, 201);
  });
}

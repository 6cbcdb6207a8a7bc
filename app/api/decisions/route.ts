import { listDecisions, listDecisionsQuery } from "@/server/decisions/list-decisions";
import { openDecision, openDecisionInput } from "@/server/decisions/open-decision";
import { callerOf, handle, json, readBody, readQuery } from "../_lib/http";

export const dynamic = "force-dynamic";

export function GET(req: Request) {
  return handle(async (ctx) => {
    await callerOf(req, ctx);
    return json(await listDecisions(ctx.db, readQuery(req, listDecisionsQuery)));
  });
}

export function POST(req: Request) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const input = await readBody(req, openDecisionInput);
    return json(await openDecision(ctx.db, caller, input, ctx.clock), 201);
  });
}

import { reportUsage, reportUsageInput } from "@/server/bill/report-usage";
import { callerOf, handle, json, readBody } from "../_lib/http";

export const dynamic = "force-dynamic";

/** An outside agent's account of one model call (agents): on the Bill, marked self-reported. */
export function POST(req: Request) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const input = await readBody(req, reportUsageInput);
    return json(await reportUsage(ctx.db, caller, input, ctx.clock), 201);
  });
}

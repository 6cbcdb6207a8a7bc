import { listPrinciples } from "@/server/memory/list-memory";
import { pinPrinciple, pinPrincipleInput } from "@/server/memory/pin-principle";
import { callerOf, handle, json, readBody } from "../_lib/http";

export const dynamic = "force-dynamic";

export function GET(req: Request) {
  return handle(async (ctx) => {
    await callerOf(req, ctx);
    return json(await listPrinciples(ctx.db));
  });
}

/** A human pins a lesson ({ lessonId }) or their own words ({ text }) as a principle. */
export function POST(req: Request) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const input = await readBody(req, pinPrincipleInput);
    return json(await pinPrinciple(ctx.db, caller, input, ctx.clock), 201);
  });
}

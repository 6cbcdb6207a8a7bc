import { pinExistingPrinciple, pinExistingPrincipleInput } from "@/server/memory/pin-principle";
import { callerOf, handle, json, readBody } from "../../../_lib/http";

export const dynamic = "force-dynamic";

interface Params {
  params: Promise<{ id: string }>;
}

export function POST(req: Request, { params }: Params) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    await readBody(req, pinExistingPrincipleInput);
    const { id } = await params;
    return json(await pinExistingPrinciple(ctx.db, caller, id, ctx.clock));
  });
}

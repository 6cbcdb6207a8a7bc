import { unpinPrinciple, unpinPrincipleInput } from "@/server/memory/unpin-principle";
import { callerOf, handle, json, readBody } from "../../../_lib/http";

export const dynamic = "force-dynamic";

interface Params {
  params: Promise<{ id: string }>;
}

export function POST(req: Request, { params }: Params) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    await readBody(req, unpinPrincipleInput);
    const { id } = await params;
    return json(await unpinPrinciple(ctx.db, caller, id, ctx.clock));
  });
}

import { fulfilCommitment, fulfilCommitmentInput } from "@/server/commitments/fulfil";
import { callerOf, handle, json, readBody } from "../../../_lib/http";

export const dynamic = "force-dynamic";

interface Params {
  params: Promise<{ id: string }>;
}

export function POST(req: Request, { params }: Params) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const input = await readBody(req, fulfilCommitmentInput);
    const { id } = await params;
    return json(await fulfilCommitment(ctx.db, caller, id, input, ctx.clock));
  });
}

import { confirmCommitment, confirmCommitmentInput } from "@/server/commitments/confirm";
import { callerOf, handle, json, readBody } from "../../../_lib/http";

export const dynamic = "force-dynamic";

interface Params {
  params: Promise<{ id: string }>;
}

export function POST(req: Request, { params }: Params) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    await readBody(req, confirmCommitmentInput);
    const { id } = await params;
    return json(await confirmCommitment(ctx.db, caller, id, ctx.clock));
  });
}

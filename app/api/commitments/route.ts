import { listCommitments, listCommitmentsQuery } from "@/server/commitments/list-commitments";
import { proposeCommitment, proposeCommitmentInput } from "@/server/commitments/propose";
import { callerOf, handle, json, readBody, readQuery } from "../_lib/http";

export const dynamic = "force-dynamic";

export function GET(req: Request) {
  return handle(async (ctx) => {
    await callerOf(req, ctx);
    return json(await listCommitments(ctx.db, readQuery(req, listCommitmentsQuery), ctx.clock.now()));
  });
}

export function POST(req: Request) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const input = await readBody(req, proposeCommitmentInput);
    return json(await proposeCommitment(ctx.db, caller, input, ctx.clock), 201);
  });
}

import { castBallot, castBallotInput } from "@/server/decisions/cast-ballot";
import { callerOf, handle, json, readBody } from "../../../_lib/http";

export const dynamic = "force-dynamic";

interface Params {
  params: Promise<{ id: string }>;
}

export function POST(req: Request, { params }: Params) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const input = await readBody(req, castBallotInput);
    const { id } = await params;
    return json(await castBallot(ctx.db, caller, id, input, ctx.clock), 201);
  });
}

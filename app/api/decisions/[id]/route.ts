import { readDecisionView } from "@/server/decisions/decision-view";
import { callerOf, handle, json } from "../../_lib/http";

export const dynamic = "force-dynamic";

interface Params {
  params: Promise<{ id: string }>;
}

export function GET(req: Request, { params }: Params) {
  return handle(async (ctx) => {
    await callerOf(req, ctx);
    const { id } = await params;
    return json(await readDecisionView(ctx.db, id));
  });
}

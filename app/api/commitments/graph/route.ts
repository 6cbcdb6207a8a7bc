import { loadCommitmentGraph } from "@/server/commitments/load-graph";
import { callerOf, handle, json } from "../../_lib/http";

export const dynamic = "force-dynamic";

export function GET(req: Request) {
  return handle(async (ctx) => {
    await callerOf(req, ctx);
    return json(await loadCommitmentGraph(ctx.db, ctx.clock.now()));
  });
}

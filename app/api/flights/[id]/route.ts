import { readFlight } from "@/server/flights/view";
import { callerOf, handle, json } from "../../_lib/http";

export const dynamic = "force-dynamic";

/** One flight, by id or number: its status, plan, tasks, spend and branch. */
export function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const { id } = await params;
    return json(await readFlight(ctx.db, id, caller));
  });
}

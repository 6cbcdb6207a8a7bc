// GET /api/journal/archives: the journal's archived months, where every view that reaches back stops (DESIGN §4).
import { listJournalArchives } from "@/server/retention/archives";
import { callerOf, handle, json } from "../../_lib/http";

export const dynamic = "force-dynamic";

export function GET(req: Request) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    return json(await listJournalArchives(ctx.db, caller));
  });
}

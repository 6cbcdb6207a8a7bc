// GET /api/journal/archives[?run=|?task=]: the journal's archived months (those holding a run's or a task's events), where every view that reaches back stops (DESIGN §4).
import { journalArchivesQuery, listJournalArchives } from "@/server/retention/archives";
import { callerOf, handle, json, readQuery } from "../../_lib/http";

export const dynamic = "force-dynamic";

export function GET(req: Request) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    return json(await listJournalArchives(ctx.db, caller, readQuery(req, journalArchivesQuery)));
  });
}

// GET /api/journal: the event stream, filtered by kind, actor, task, run and full text, a cursor page at a time.
import { listJournal, listJournalQuery } from "@/server/journal/list";
import { callerOf, handle, json, readQuery } from "../_lib/http";

export const dynamic = "force-dynamic";

export function GET(req: Request) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    return json(await listJournal(ctx.db, { ...readQuery(req, listJournalQuery), viewer: caller }));
  });
}

// GET /api/journal: the event stream, filtered by kind, actor, task, run and full text, a cursor page at a time.
import { z } from "zod";
import { listJournal } from "@/server/journal/list";
import { callerOf, handle, json, readQuery } from "../_lib/http";

export const dynamic = "force-dynamic";

const journalQuery = z.strictObject({
  after: z.coerce.number().int().min(0).optional(),
  before: z.coerce.number().int().min(1).optional(),
  kind: z.string().max(64).optional(),
  actor: z.uuid().optional(),
  task: z.uuid().optional(),
  run: z.string().max(128).optional(),
  /** Full-text search (web-search syntax: words, "a phrase", -not). */
  q: z.string().trim().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});

export function GET(req: Request) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    return json(await listJournal(ctx.db, { ...readQuery(req, journalQuery), viewer: caller }));
  });
}

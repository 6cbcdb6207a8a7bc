// GET /api/journal/tasks/:id/audit: who approved or rejected what, on which evidence.
import { z } from "zod";
import { taskAudit } from "@/server/tasks/task-journal";
import { callerOf, handle, json } from "../../../../_lib/http";
import { readParams } from "../../../_lib/params";

export const dynamic = "force-dynamic";

export function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const { id } = await readParams(params, z.strictObject({ id: z.uuid() }));
    return json(await taskAudit(ctx.db, id, caller));
  });
}

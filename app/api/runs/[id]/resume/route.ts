// POST /api/runs/:id/resume {reason?}: a human asks the team's worker to carry a halted or stopped run on.
import { requestResume, requestResumeInput } from "@/server/runs/request-resume";
import { callerOf, handle, json, readBody } from "../../../_lib/http";

export const dynamic = "force-dynamic";

export function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const input = await readBody(req, requestResumeInput);
    const { id } = await params;
    return json(await requestResume(ctx.db, caller, id, input, ctx.clock), 202);
  });
}

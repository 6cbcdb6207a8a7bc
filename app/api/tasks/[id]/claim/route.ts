import { claimTask, claimTaskInput } from "@/server/tasks/claim";
import { callerOf, handle, json, readBody } from "../../../_lib/http";

export const dynamic = "force-dynamic";

export function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    await readBody(req, claimTaskInput);
    const { id } = await params;
    return json(await claimTask(ctx.db, caller, id, ctx.clock));
  });
}

import { claimTask, claimTaskInput } from "@/server/tasks/claim";
import { callerOf, handle, json, readBody } from "../../../_lib/http";
import { taskIdOf } from "@/server/tasks/ref";

export const dynamic = "force-dynamic";

export function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    await readBody(req, claimTaskInput);
    const id = await taskIdOf(ctx.db, (await params).id);
    return json(await claimTask(ctx.db, caller, id, ctx.clock));
  });
}

import { reviewTask, reviewTaskInput } from "@/server/tasks/review";
import { callerOf, handle, json, readBody } from "../../../_lib/http";
import { taskIdOf } from "@/server/tasks/ref";

export const dynamic = "force-dynamic";

export function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const input = await readBody(req, reviewTaskInput);
    const id = await taskIdOf(ctx.db, (await params).id);
    return json(await reviewTask(ctx.db, caller, id, input, ctx.clock));
  });
}

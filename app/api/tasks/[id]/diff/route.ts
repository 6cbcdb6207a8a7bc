import { readTaskDiff } from "@/server/flights/task-diff";
import { callerOf, handle, json } from "../../../_lib/http";
import { taskIdOf } from "@/server/tasks/ref";

export const dynamic = "force-dynamic";

interface Params {
  params: Promise<{ id: string }>;
}

/** What the task changed (a flight task's branch or merge, a goal's combined merges): files and hunks for the review. */
export function GET(req: Request, { params }: Params) {
  return handle(async (ctx) => {
    await callerOf(req, ctx);
    const id = await taskIdOf(ctx.db, (await params).id);
    return json(await readTaskDiff(ctx.db, id));
  });
}

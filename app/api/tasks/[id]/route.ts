import { editTask, editTaskInput } from "@/server/tasks/edit";
import { getTaskDetail } from "@/server/tasks/get";
import { callerOf, handle, json, readBody } from "../../_lib/http";
import { taskIdOf } from "@/server/tasks/ref";

export const dynamic = "force-dynamic";

interface Params {
  params: Promise<{ id: string }>;
}

/** The drawer: the task with its evidence, reviews, ADR, latest output and thread. */
export function GET(req: Request, { params }: Params) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const id = await taskIdOf(ctx.db, (await params).id);
    return json(await getTaskDetail(ctx.db, caller, id));
  });
}

/** Fix a ready task's title, description, criteria or approver (its creator, or a human). */
export function PATCH(req: Request, { params }: Params) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const input = await readBody(req, editTaskInput);
    const id = await taskIdOf(ctx.db, (await params).id);
    return json(await editTask(ctx.db, caller, id, input, ctx.clock));
  });
}

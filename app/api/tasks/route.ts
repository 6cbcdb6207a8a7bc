import { createTask, createTaskInput } from "@/server/tasks/create";
import { listTasks, listTasksQuery } from "@/server/tasks/list";
import { callerOf, handle, json, readBody, readQuery } from "../_lib/http";

export const dynamic = "force-dynamic";

export function GET(req: Request) {
  return handle(async (ctx) => {
    await callerOf(req, ctx);
    return json(await listTasks(ctx.db, readQuery(req, listTasksQuery)));
  });
}

export function POST(req: Request) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const input = await readBody(req, createTaskInput);
    return json(await createTask(ctx.db, caller, input, ctx.clock), 201);
  });
}

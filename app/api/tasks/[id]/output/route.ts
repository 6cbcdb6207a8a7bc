import { appendOutput, appendOutputInput } from "@/server/tasks/append-output";
import { listOutput, listOutputQuery } from "@/server/tasks/list-output";
import { callerOf, handle, json, readBody, readQuery } from "../../../_lib/http";
import { taskIdOf } from "@/server/tasks/ref";

export const dynamic = "force-dynamic";

interface Params {
  params: Promise<{ id: string }>;
}

/** The items written so far, in order (`after=SEQ`): where a replacement resumes. */
export function GET(req: Request, { params }: Params) {
  return handle(async (ctx) => {
    await callerOf(req, ctx);
    const query = readQuery(req, listOutputQuery);
    const id = await taskIdOf(ctx.db, (await params).id);
    return json(await listOutput(ctx.db, id, query));
  });
}

export function POST(req: Request, { params }: Params) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const input = await readBody(req, appendOutputInput);
    const id = await taskIdOf(ctx.db, (await params).id);
    return json(await appendOutput(ctx.db, caller, id, input, ctx.clock));
  });
}

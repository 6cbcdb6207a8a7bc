import { listLessons, listLessonsQuery } from "@/server/memory/list-memory";
import { recordLesson, recordLessonInput } from "@/server/memory/record-lesson";
import { callerOf, handle, json, readBody, readQuery } from "../_lib/http";

export const dynamic = "force-dynamic";

export function GET(req: Request) {
  return handle(async (ctx) => {
    await callerOf(req, ctx);
    return json(await listLessons(ctx.db, readQuery(req, listLessonsQuery)));
  });
}

export function POST(req: Request) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const input = await readBody(req, recordLessonInput);
    return json(await recordLesson(ctx.db, caller, input, ctx.clock), 201);
  });
}

// POST /api/reservations/check { paths }: which paths someone else holds (the pre-commit hook asks this).
import { checkPaths, checkPathsInput } from "@/server/reservations/check-paths";
import { callerOf, handle, json, readBody } from "../../_lib/http";

export const dynamic = "force-dynamic";

export function POST(req: Request) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const input = await readBody(req, checkPathsInput);
    return json(await checkPaths(ctx.db, caller, input, ctx.clock.now()));
  });
}

import { callerOf, handle, json } from "../_lib/http";

export const dynamic = "force-dynamic";

export function GET(req: Request) {
  return handle(async (ctx) => json(await callerOf(req, ctx)));
}

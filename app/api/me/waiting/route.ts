import { listWaiting } from "@/server/desk/waiting";
import { callerOf, handle, json } from "../../_lib/http";

export const dynamic = "force-dynamic";

/** What waits for the caller's decision: escalations (humans), reviews they approve, requests addressed to them. */
export function GET(req: Request) {
  return handle(async (ctx) => json(await listWaiting(ctx.db, await callerOf(req, ctx))));
}

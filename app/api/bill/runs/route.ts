// GET /api/bill/runs?agent=&task=&before=&limit=: runs with their tokens and cost, newest first.
import { priceSettings } from "@/server/config";
import { billPageQuery, listBillRuns } from "@/server/bill/recent";
import { callerOf, handle, json, readQuery } from "../../_lib/http";

export const dynamic = "force-dynamic";

export function GET(req: Request) {
  return handle(async (ctx) => {
    await callerOf(req, ctx);
    return json(await listBillRuns(ctx.db, priceSettings().prices, readQuery(req, billPageQuery)));
  });
}

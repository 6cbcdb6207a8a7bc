// GET /api/bill/series?window=1h&since=ISO: spend over time per agent, with BudgetExhausted markers.
import { priceSettings } from "@/server/config";
import { billSeries, billSeriesQuery } from "@/server/bill/series";
import { callerOf, handle, json, readQuery } from "../../_lib/http";

export const dynamic = "force-dynamic";

export function GET(req: Request) {
  return handle(async (ctx) => {
    await callerOf(req, ctx);
    return json(await billSeries(ctx.db, priceSettings(), readQuery(req, billSeriesQuery), ctx.clock.now()));
  });
}

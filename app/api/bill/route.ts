// GET /api/bill: tokens and money per agent, model, task and run, and what is left of every budget.
import { billQuery, readBill } from "@/server/bill/read-bill";
import { priceSettings } from "@/server/config";
import { callerOf, handle, json, readQuery } from "../_lib/http";

export const dynamic = "force-dynamic";

export function GET(req: Request) {
  return handle(async (ctx) => {
    await callerOf(req, ctx);
    return json(await readBill(ctx.db, priceSettings(), readQuery(req, billQuery)));
  });
}

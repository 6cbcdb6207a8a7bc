// GET /api/bill/tasks?before=&limit=: tasks with their tokens and cost, newest spender first.
import { priceSettings } from "@/server/config";
import { billTasksQuery, listBillTasks } from "@/server/bill/recent";
import { callerOf, handle, json, readQuery } from "../../_lib/http";

export const dynamic = "force-dynamic";

export function GET(req: Request) {
  return handle(async (ctx) => {
    await callerOf(req, ctx);
    return json(await listBillTasks(ctx.db, priceSettings().prices, readQuery(req, billTasksQuery)));
  });
}

// GET /api/bill: tokens and money per agent, model, task and run, and what is left of every budget.
import { z } from "zod";
import { readBill } from "@/server/bill/read-bill";
import { priceConfig } from "@/server/bill/prices";
import { callerOf, handle, json, readQuery } from "../_lib/http";

export const dynamic = "force-dynamic";

const billQuery = z.strictObject({
  /** How many of the newest tasks and runs to include (the rest: /api/bill/tasks, /api/bill/runs). */
  limit: z.coerce.number().int().min(1).max(200).optional(),
});

export function GET(req: Request) {
  return handle(async (ctx) => {
    await callerOf(req, ctx);
    return json(await readBill(ctx.db, priceConfig(), readQuery(req, billQuery)));
  });
}

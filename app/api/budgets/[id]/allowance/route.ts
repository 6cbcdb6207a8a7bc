// POST /api/budgets/:id/allowance {allowance}: top up (a halted run may then resume) or lower a budget.
import { setAllowance, setAllowanceInput } from "@/server/budgets/set-allowance";
import { callerOf, handle, json, readBody } from "../../../_lib/http";

export const dynamic = "force-dynamic";

export function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const input = await readBody(req, setAllowanceInput);
    const { id } = await params;
    return json(await setAllowance(ctx.db, caller, id, input, ctx.clock));
  });
}

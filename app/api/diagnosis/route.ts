// GET /api/diagnosis?flight=|run=|task=|since=: the MAST failure modes in the journal at one scope, as the caller may read it.
import { diagnoseScope, diagnosisQuery } from "@/server/diagnosis/scope";
import { callerOf, handle, json, readQuery } from "../_lib/http";

export const dynamic = "force-dynamic";

export function GET(req: Request) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    return json(await diagnoseScope(ctx.db, caller, readQuery(req, diagnosisQuery)));
  });
}

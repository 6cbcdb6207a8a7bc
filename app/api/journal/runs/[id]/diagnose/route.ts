// GET /api/journal/runs/:id/diagnose: the failure signatures in the run's journal and its task's thread.
import { z } from "zod";
import { diagnose } from "@/server/runs/diagnose";
import { loadDiagnosisEvents } from "@/server/runs/run-journal";
import { runIdSchema } from "@/server/journal/load";
import { callerOf, handle, json } from "../../../../_lib/http";
import { readParams } from "../../../_lib/params";

export const dynamic = "force-dynamic";

export function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handle(async (ctx) => {
    const caller = await callerOf(req, ctx);
    const { id } = await readParams(params, z.strictObject({ id: runIdSchema }));
    const events = await loadDiagnosisEvents(ctx.db, id, caller);
    return json({ runId: id, events: events.length, findings: diagnose(events) });
  });
}

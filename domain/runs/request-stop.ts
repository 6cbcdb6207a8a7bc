// The operator stop: a StopRequested event in the run's journal, honoured at the run's next turn
// boundary by whichever process drives it (an in-process AbortSignal does the same without the database).
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { events } from "../../db/schema";
import type { Db } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { appendEvent } from "../journal/append";
import { loadRunEvents } from "../journal/load";
import { foldRun } from "./resume-point";
import type { Principal } from "../principal";
import { lockRun } from "./fence";

export const requestStopInput = z.strictObject({ reason: z.string().trim().min(1, "say why the run should stop").max(1_000) });
export type RequestStopInput = z.infer<typeof requestStopInput>;

/** Humans, the harness (no caller) and the run's own agent may stop it; other agents may not. */
export async function requestStop(db: Db, caller: Principal | null, runId: string, input: RequestStopInput, clock: Clock): Promise<{ runId: string; requested: true }> {
  const { reason } = input;
  // Run ids are `run_<hex>` or chosen by the starter; anything with control characters names no run.
  if (!/^[\x21-\x7e]{1,200}$/.test(runId)) throw fail.notFound("run", `no run ${JSON.stringify(runId.slice(0, 64))}`);
  await db.transaction(async (tx) => {
    // Under the run's lock, the run cannot finish between the check and the request.
    await lockRun(tx, runId);
    const [started] = await tx
      .select({ actor: events.actor })
      .from(events)
      .where(and(eq(events.runId, runId), eq(events.kind, "RunStarted")));
    if (!started) throw fail.notFound("run", `no run ${runId}`);
    if (caller?.kind === "agent" && caller.id !== started.actor) throw fail.forbidden("run", "an agent may stop only its own runs");
    const state = foldRun(await loadRunEvents(tx, runId));
    if (state.cursor.at === "finished") {
      throw fail.conflict("run", "run_finished", `run ${runId} has already finished (${state.cursor.result.status})`);
    }
    await appendEvent(tx, { kind: "StopRequested", actor: caller?.id ?? null, runId, taskId: state.taskId, t: clock.now(), data: { reason } });
  });
  return { runId, requested: true };
}

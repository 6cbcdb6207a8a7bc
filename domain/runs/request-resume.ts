// Resume, asked by a human: a ResumeRequested event in a halted or stopped run's journal. The team worker
// hosting the run's agent carries the run on from its journal (domain/runs/interrupted.ts finds it), in the
// place it worked, and finishes the job: a coder's resumed run submits its task.
import { eq } from "drizzle-orm";
import { z } from "zod";
import { tasks } from "../../db/schema";
import type { Db } from "../../db/client";
import { exhaustedBudget } from "../budgets/spend";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { appendEvent } from "../journal/append";
import { loadRunEvents } from "../journal/load";
import type { Principal } from "../principal";
import { lockRun } from "./fence";
import { foldRun } from "./resume-point";

export const requestResumeInput = z.strictObject({ reason: z.string().trim().min(1).max(1_000).optional() });
export type RequestResumeInput = z.infer<typeof requestResumeInput>;

/** Only a human resumes a run: a pause (a budget ran out, an operator stopped it) is theirs to end. */
export async function requestResume(db: Db, caller: Principal | null, runId: string, input: RequestResumeInput, clock: Clock): Promise<{ runId: string; requested: true }> {
  if (caller?.kind !== "human") throw fail.forbidden("run", "only a human resumes a run");
  if (!/^[\x21-\x7e]{1,200}$/.test(runId)) throw fail.notFound("run", `no run ${JSON.stringify(runId.slice(0, 64))}`);
  await db.transaction(async (tx) => {
    // Under the run's lock, nothing advances the run between the checks and the request.
    await lockRun(tx, runId);
    const state = foldRun(await loadRunEvents(tx, runId));
    if (!state.config) throw fail.notFound("run", `no run ${runId}`);
    const at = state.cursor.at;
    if (at !== "halted" && at !== "stopped") {
      throw fail.conflict(
        "run",
        "run_not_paused",
        at === "finished"
          ? `run ${runId} has finished (${state.cursor.result.status}): there is nothing to resume`
          : `run ${runId} is running: only a halted or stopped run is resumed`,
      );
    }
    if (at === "halted") {
      const still = await exhaustedBudget(tx, state.config.budgetIds);
      if (still)
        throw fail.conflict(
          "run",
          "budget_exhausted",
          `run ${runId} would halt again at once: top up budget ${still.budgetId} (${still.budgetSpent} of ${still.allowance} tokens spent) first`,
        );
    }
    if (state.taskId) {
      const [task] = await tx.select({ status: tasks.status, ownerId: tasks.ownerId, number: tasks.number }).from(tasks).where(eq(tasks.id, state.taskId));
      if (task && (task.status !== "in_progress" || task.ownerId !== state.agentId)) {
        throw fail.conflict("run", "task_moved_on", `task #${task.number} is no longer this run's (${task.status}): the team takes it up afresh`);
      }
    }
    await appendEvent(tx, {
      kind: "ResumeRequested",
      actor: caller.id,
      runId,
      taskId: state.taskId,
      t: clock.now(),
      data: { reason: input.reason ?? `${caller.name} resumed it` },
    });
  });
  return { runId, requested: true };
}

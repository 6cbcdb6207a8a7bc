// What a flight's coder does next, in one call: carry on a run it left (a crash, a human's Resume), give up
// a task rejected too often, rework a rejected one, or claim new work, with what its run needs to start.
import type { Db } from "../../db/client";
import { budgetForRun } from "../budgets/run-budget";
import type { Clock } from "../clock";
import type { Principal } from "../principal";
import { runsToCarryOn } from "../runs/interrupted";
import { claimNextFlightTask, type FlightWork, heldFlightWork, nextRework, reopenedWith, requestAddressedTo } from "./work";

export type CoderStep =
  /** A run of this coder's that never ended, or that a human asked to resume: carried on from its journal. */
  | { kind: "carry-on"; runId: string; work: FlightWork }
  /** Rejected `rejections` times: the coder gives the task up (domain/flights/hand-back.ts giveUpSubtask). */
  | { kind: "give-up"; work: FlightWork; rejections: number; lastReview: string }
  /**
   * A run to start: on rework (`rework`: the last request for changes, its reason and line comments), or on a
   * task just claimed — `reopened` says why a task accepted before came back. `requestId` is the REQUEST the run answers; `budgetId` the budget it draws on.
   */
  | { kind: "work"; work: FlightWork; rework: string | null; reopened: string | null; requestId: number | null; budgetId: string };

/**
 * The coder's next step, or null when there is nothing to do. `ownBudgetId` is the coder's own budget (a run
 * on a task without one draws on it); `maxRejections` is when rework turns into giving up.
 */
export async function nextCoderStep(db: Db, coder: Principal, ownBudgetId: string, clock: Clock, maxRejections: number): Promise<CoderStep | null> {
  for (const { runId, taskId } of await runsToCarryOn(db, coder.id)) {
    const work = await heldFlightWork(db, taskId);
    if (work) return { kind: "carry-on", runId, work };
  }
  const rework = await nextRework(db, coder.id);
  if (rework && rework.rejections >= maxRejections) return { kind: "give-up", work: rework, rejections: rework.rejections, lastReview: rework.lastReview };
  const work = rework ?? (await claimNextFlightTask(db, coder, clock));
  if (!work) return null;
  const reopened = rework ? null : await reopenedWith(db, work.task.id);
  return {
    kind: "work",
    work,
    rework: rework?.lastReview ?? null,
    reopened,
    requestId: await requestAddressedTo(db, work.task.id, coder.id),
    budgetId: await budgetForRun(db, work.task.id, ownBudgetId),
  };
}

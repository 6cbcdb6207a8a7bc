// Awaited replies have deadlines: a silent reviewer is re-asked once, then the task goes to the room.
import { markReasked, markReplyEscalated, nextSilentReview } from "../../../domain/flights/deadlines";
import { getSystemPrincipal } from "../../../domain/principals/create-principal";
import type { TeamContext } from "../context";
import { speak } from "../speak";

/** How long a review may take before the reviewer is re-asked (and as long again before escalation), unless configured. */
export const DEFAULT_REVIEW_DEADLINE_MS = 300_000;

export async function chaseSilentReviewers(ctx: TeamContext): Promise<boolean> {
  const { db, clock, team } = ctx;
  const horizon = new Date(clock.now().getTime() - ctx.reviewDeadlineMs);
  const silent = await nextSilentReview(db, horizon);
  if (!silent) return false;
  if (!silent.reaskedAt) {
    if (!(await markReasked(db, team.orchestrator.principal, silent, clock))) return true;
    await speak(
      db,
      team.orchestrator.principal,
      {
        body: `Task #${silent.task.number} has waited for your review since ${silent.task.updatedAt.toISOString()}. Please review it.`,
        performative: "REQUEST",
        to: silent.approverName,
        taskId: silent.task.id,
      },
      clock,
      ctx.pace,
    );
    return true;
  }
  if (silent.reaskedAt.getTime() > horizon.getTime()) return false;
  const escalated = await markReplyEscalated(db, team.orchestrator.principal, silent, clock);
  if (!escalated) return true;
  // The system speaks to the humans: an escalation must not be lost to the orchestrator's own gates.
  // It is addressed to the human who set the flight's goal: posted in the room for all to see, but
  // not delivered to the agents as a REQUEST none of them can answer.
  await speak(
    db,
    await getSystemPrincipal(db),
    {
      body: `Task #${silent.task.number} is stuck in review: @${silent.approverName} did not answer after being asked twice. A human may review it or reassign the approver.`,
      performative: "REQUEST",
      to: escalated.goalApproverId ?? undefined,
      taskId: silent.task.id,
    },
    clock,
    ctx.pace,
  );
  return true;
}

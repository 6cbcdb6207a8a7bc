// Awaited replies have deadlines: a silent reviewer is re-asked once, then the task goes to the room.
import { and, eq, isNotNull, isNull, lt } from "drizzle-orm";
import { flights, flightTasks, principals, tasks } from "../../../db/schema";
import { appendEvent } from "../../../server/journal/append";
import { getSystemPrincipal } from "../../../server/principals/create-principal";
import type { TeamContext } from "../context";
import { speak } from "../speak";

/** How long a review may take before the reviewer is re-asked (and as long again before escalation). */
export function reviewDeadlineMs(): number {
  return Number(process.env.QUORUM_REVIEW_DEADLINE_SECONDS ?? 300) * 1000;
}

export async function chaseSilentReviewers(ctx: TeamContext): Promise<boolean> {
  const { db, clock, team } = ctx;
  const now = clock.now();
  const horizon = new Date(now.getTime() - reviewDeadlineMs());
  const [silent] = await db
    .select({ task: tasks, flight: flightTasks, approverName: principals.name })
    .from(flightTasks)
    .innerJoin(tasks, eq(tasks.id, flightTasks.taskId))
    .innerJoin(principals, eq(principals.id, tasks.approverId))
    .where(
      and(
        eq(tasks.status, "review"),
        lt(tasks.updatedAt, horizon),
        isNull(flightTasks.escalatedAt),
      ),
    )
    .limit(1);
  if (!silent) return false;
  if (!silent.flight.reaskedAt) {
    await db.transaction(async (tx) => {
      await tx.update(flightTasks).set({ reaskedAt: now }).where(eq(flightTasks.taskId, silent.task.id));
      await appendEvent(tx, { kind: "ReplyReasked", actor: team.orchestrator.principal.id, taskId: silent.task.id, t: now, data: { awaiting: silent.task.approverId } });
    });
    await speak(db, team.orchestrator.principal, { body: `Task #${silent.task.number} has waited for your review since ${silent.task.updatedAt.toISOString()}. Please review it.`, performative: "REQUEST", to: silent.approverName, taskId: silent.task.id }, clock);
    return true;
  }
  if (silent.flight.reaskedAt.getTime() > horizon.getTime()) return false;
  await db.transaction(async (tx) => {
    await tx.update(flightTasks).set({ escalatedAt: now }).where(and(eq(flightTasks.taskId, silent.task.id), isNotNull(flightTasks.reaskedAt)));
    await appendEvent(tx, { kind: "ReplyEscalated", actor: team.orchestrator.principal.id, taskId: silent.task.id, t: now, data: { awaiting: silent.task.approverId } });
  });
  // The system speaks to the humans: an escalation must not be lost to the orchestrator's own gates.
  // It is addressed to the human who set the flight's goal: posted in the room for all to see, but
  // not delivered to the agents as a REQUEST none of them can answer.
  const [owner] = await db
    .select({ id: tasks.approverId })
    .from(flights)
    .innerJoin(tasks, eq(tasks.id, flights.goalTaskId))
    .where(eq(flights.id, silent.flight.flightId));
  await speak(db, await getSystemPrincipal(db), { body: `Task #${silent.task.number} is stuck in review: @${silent.approverName} did not answer after being asked twice. A human may review it or reassign the approver.`, performative: "REQUEST", to: owner?.id ?? undefined, taskId: silent.task.id }, clock);
  return true;
}

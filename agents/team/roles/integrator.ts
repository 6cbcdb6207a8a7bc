// Integration: merges a task's branch into main only when the approver's ACCEPT exists (the board's gate).
import { and, eq, isNull } from "drizzle-orm";
import { flights, flightTasks, tasks } from "../../../db/schema";
import { appendEvent } from "../../../server/journal/append";
import { requireAccepted } from "../../../server/tasks/require-accepted";
import type { TeamContext } from "../context";
import { speak } from "../speak";
import { mergeIntoMain } from "../workspace";

export async function integrateNextTask(ctx: TeamContext): Promise<boolean> {
  const { db, clock, team } = ctx;
  const me = team.orchestrator;
  const [next] = await db
    .select({ task: tasks, repo: flights.repo, flightId: flights.id, goalTaskId: flights.goalTaskId })
    .from(flightTasks)
    .innerJoin(tasks, eq(tasks.id, flightTasks.taskId))
    .innerJoin(flights, eq(flights.id, flightTasks.flightId))
    .where(and(eq(tasks.status, "done"), isNull(flightTasks.integratedAt)))
    .orderBy(tasks.number)
    .limit(1);
  if (!next) return false;
  // The precondition is code that throws, not a prompt: no ACCEPT from the approver, no merge.
  const acceptance = await requireAccepted(db, next.task.id);
  await db.transaction(async (tx) => {
    // Marking it first is the claim: a second integrator finds nothing, and a failed merge rolls it back.
    const [mine] = await tx
      .update(flightTasks)
      .set({ integratedAt: clock.now() })
      .where(and(eq(flightTasks.taskId, next.task.id), isNull(flightTasks.integratedAt)))
      .returning();
    if (!mine) return;
    const commit = mergeIntoMain(next.repo, next.task.id, `task #${next.task.number}: ${next.task.title}`);
    await appendEvent(tx, {
      kind: "TaskIntegrated",
      actor: me.principal.id,
      taskId: next.task.id,
      t: clock.now(),
      data: { flightId: next.flightId, commit, acceptance },
    });
  });
  await speak(
    db,
    me.principal,
    { body: `Integrated task #${next.task.number} into main. Please run the full suite on main.`, performative: "REQUEST", to: team.tester.principal.name, taskId: next.goalTaskId },
    clock,
  );
  return true;
}

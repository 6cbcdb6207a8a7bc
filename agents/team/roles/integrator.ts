// Integration: merges a task's branch into main only when the approver's ACCEPT exists (the board's gate).
import { integrateTask, nextTaskToIntegrate } from "../../../server/flights/integrate";
import type { TeamContext } from "../context";
import { speak } from "../speak";
import { mergeIntoMain } from "../workspace";

export async function integrateNextTask(ctx: TeamContext): Promise<boolean> {
  const { db, clock, team } = ctx;
  const me = team.orchestrator;
  const next = await nextTaskToIntegrate(db);
  if (!next) return false;
  const commit = await integrateTask(db, me.principal, next, () => mergeIntoMain(next.repo, next.task.id, `task #${next.task.number}: ${next.task.title}`), clock);
  // Someone else integrated it first: there is nothing of ours to announce.
  if (!commit) return true;
  await speak(
    db,
    me.principal,
    {
      body: `Integrated task #${next.task.number} into main. Please run the full suite on main.`,
      performative: "REQUEST",
      to: team.tester.principal.name,
      taskId: next.goalTaskId,
    },
    clock,
  );
  return true;
}

// When the goal's human asks for changes, the orchestrator files the task that makes them (with the reason and
// each line comment by file and line) and says so; a coder takes it like any task of the flight.
import { takeRequestedChanges } from "../../../domain/flights/changes";
import type { TeamContext } from "../context";
import { speak } from "../speak";

export async function takeUpRequestedChanges(ctx: TeamContext): Promise<boolean> {
  const { db, clock, team } = ctx;
  const me = team.orchestrator;
  const taken = await takeRequestedChanges(db, me.principal, team.reviewer.principal.id, clock);
  if (!taken) return false;
  const comments = taken.comments ? ` and ${taken.comments} line ${taken.comments === 1 ? "comment" : "comments"}` : "";
  await speak(
    db,
    me.principal,
    {
      body: `Goal #${taken.goalNumber} came back with changes asked for${comments}: task #${taken.task.number} makes them, then the suite runs again.`,
      performative: "INFORM",
      taskId: taken.task.id,
    },
    clock,
    ctx.pace,
  );
  return true;
}

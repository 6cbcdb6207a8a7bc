// Integration: merges a task's branch into its flight's branch only when the approver's ACCEPT exists (the
// board's gate), publishes the branch to the user's repository, and asks the tester to run the suite there.
// A merge that conflicts goes back to its coder as rework, the conflict its evidence.
import { humanOfFlight } from "../../../domain/flights/hand-back";
import { integrateTask, nextTaskToIntegrate, recordBranchPublished } from "../../../domain/flights/integrate";
import { pushToRemote } from "../../../domain/flights/remote";
import type { TeamContext } from "../context";
import { speak } from "../speak";
import { mergeIntoFlight, publishFlightBranch } from "../workspace";
import { quoted } from "../../../domain/quoted-text";

export async function integrateNextTask(ctx: TeamContext): Promise<boolean> {
  const { db, clock, team } = ctx;
  const me = team.orchestrator;
  const next = await nextTaskToIntegrate(db);
  if (!next) return false;
  const { task, place } = next;
  const outcome = await integrateTask(db, me.principal, next, (expected) => mergeIntoFlight(place, task.id, `task #${task.number}: ${task.title}`, expected), clock);
  // Someone else integrated it first: there is nothing of ours to announce.
  if (!outcome) return true;
  if ("refused" in outcome) {
    const { actual, unexplained } = outcome.refused;
    await speak(
      db,
      me.principal,
      {
        body: `I did not merge task #${task.number}: ${place.branch} moved to ${actual.slice(0, 7)} by commits no reviewed task explains (${unexplained.map((s) => quoted(s, 80)).join(", ")}). The flight is red and its goal is back with you: look at the branch, and retry the flight when it holds only what you want.`,
        performative: "ERROR",
        to: (await humanOfFlight(db, place.flightId))?.name,
        taskId: place.goalTaskId,
      },
      clock,
      ctx.pace,
    );
    return true;
  }
  if ("conflict" in outcome) {
    await speak(
      db,
      me.principal,
      {
        body: `Task #${task.number} conflicts with ${place.branch} in ${outcome.files.join(", ")}: I sent it back for rework on the branch as it is now.`,
        performative: "REQUEST",
        to: task.ownerId ? (team.coders.find((c) => c.principal.id === task.ownerId)?.principal.name ?? undefined) : undefined,
        taskId: task.id,
      },
      clock,
      ctx.pace,
    );
    return true;
  }
  // Into the hub's clone of the user's repository, then (for a remote one) on to the remote itself.
  const refused = publishFlightBranch(place) ?? (place.remote && place.source ? await pushToRemote(db, place.remote, place.source, place.branch) : null);
  await recordBranchPublished(db, me.principal, place, outcome.commit, refused, clock);
  await speak(
    db,
    me.principal,
    {
      body: `Integrated task #${task.number} into ${place.branch}. Please run the full suite there.`,
      performative: "REQUEST",
      to: team.tester.principal.name,
      taskId: place.goalTaskId,
    },
    clock,
    ctx.pace,
  );
  return true;
}

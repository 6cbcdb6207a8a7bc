// Once a remote flight's goal is accepted, the orchestrator hands the work back where the team's humans review
// code: a pull request on the forge (domain/flights/pull-request.ts).
import { readyNextDraft } from "../../../domain/flights/draft-pull-request";
import { ForgeRefused, recordForgeRefusal } from "../../../domain/flights/forge-refusal";
import { openNextPullRequest } from "../../../domain/flights/pull-request";
import { followPullRequests } from "../../../domain/flights/pull-request-state";
import type { TeamContext } from "../context";
import { speak } from "../speak";

/**
 * Opens the pull request a flight is due (a draft when green, if its human chose one), or marks an accepted
 * flight's draft ready. A forge that refuses is tried again at the next turn; its reason goes to the worker's log, never the token.
 */
export async function openPullRequest(ctx: TeamContext): Promise<boolean> {
  try {
    const opened = await openNextPullRequest(ctx.db, ctx.team.orchestrator.principal, ctx.clock);
    return opened || (await readyNextDraft(ctx.db, ctx.team.orchestrator.principal, ctx.clock));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    // The flight's human is told under "waiting for you"; the step is tried again at the next turn.
    if (error instanceof ForgeRefused) await recordForgeRefusal(ctx.db, ctx.team.orchestrator.principal, error, ctx.clock);
    return false;
  }
}

/**
 * Ends the flights whose pull request was merged or closed on the forge, and takes up what came back on the open
 * ones as rework, saying so in the Room; a forge that does not answer is asked again later.
 */
export async function followPullRequest(ctx: TeamContext): Promise<boolean> {
  const { db, clock, team } = ctx;
  try {
    const news = await followPullRequests(db, team.orchestrator.principal, team.reviewer.principal.id, clock);
    for (const { pullRequest, filed, flightNumber } of news) {
      if (!filed.length) continue;
      const tasks = filed.map((t) => `#${t.number} ${t.title}`).join("; ");
      await speak(
        db,
        team.orchestrator.principal,
        {
          body: `Pull request #${pullRequest} of flight ${flightNumber} came back: ${tasks}. The fix goes to the same branch, which updates the pull request.`,
          performative: "INFORM",
          taskId: filed[0].id,
        },
        clock,
        ctx.pace,
      );
    }
    return news.length > 0;
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return false;
  }
}

// Once a remote flight's goal is accepted, the orchestrator hands the work back where the team's humans review
// code: a pull request on the forge (domain/flights/pull-request.ts).
import { openNextPullRequest } from "../../../domain/flights/pull-request";
import { followPullRequests } from "../../../domain/flights/pull-request-state";
import type { TeamContext } from "../context";

/** A forge that refuses is tried again at the next turn; its reason goes to the worker's log, never the token. */
export async function openPullRequest(ctx: TeamContext): Promise<boolean> {
  try {
    return await openNextPullRequest(ctx.db, ctx.team.orchestrator.principal, ctx.clock);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return false;
  }
}

/** Ends the flights whose pull request was merged or closed on the forge; a forge that does not answer is asked again later. */
export async function followPullRequest(ctx: TeamContext): Promise<boolean> {
  try {
    return await followPullRequests(ctx.db, ctx.team.orchestrator.principal, ctx.clock);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return false;
  }
}

// Issue intake at the orchestrator's turns: where a forge takes labelled issues and is polled, its labelled issues
// become flight proposals waiting for a human (domain/flights/proposals.ts). The orchestrator proposes; it starts nothing.
import { pollIssueIntake } from "../../../domain/flights/proposals";
import type { TeamContext } from "../context";

/** A forge that refuses is asked again a minute later; its reason goes to the worker's log, never the token. */
export async function takeLabelledIssues(ctx: TeamContext): Promise<boolean> {
  try {
    return await pollIssueIntake(ctx.db, ctx.clock);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return false;
  }
}

// How a check run on a flight's pull request reads to a person: passed, failed or still to come. One rule, for the
// journal's counts and the flight's view alike.
import type { PullRequestCheck } from "../../db/schema";

/** Concluded neutral or skipped counts as passed, as GitHub's merge box shows it; cancelled, timed out or action needed as failed. */
export function checkState(check: Pick<PullRequestCheck, "status" | "conclusion">): "passed" | "failed" | "pending" {
  if (check.status !== "completed") return "pending";
  return ["success", "neutral", "skipped"].includes(check.conclusion ?? "") ? "passed" : "failed";
}

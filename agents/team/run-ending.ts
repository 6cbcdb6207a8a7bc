// How a role's run ends for the task it holds: done, or an ending to hand the task back with (the model
// failed for good, or the run ended inconclusive, out of turns, halted or stopped).
import type { RunEnding } from "../../domain/flights/hand-back";
import type { RunResult } from "../../domain/runs/run-events";
import type { ModelClient } from "../model/model-client";
import { newRunId } from "../run";

/** Done, or an ending (with the run's result when it returned one). */
export type Attempt = { runId: string; result: Extract<RunResult, { status: "done" }>; ending: null } | { runId: string; result: RunResult | null; ending: RunEnding };

/** In words: why a run that is not done did not finish. */
export function reasonOf(result: RunResult): string {
  switch (result.status) {
    case "done":
      return result.summary;
    case "inconclusive":
    case "stopped":
      return result.reason;
    case "out_of_turns":
      return `it used all its turns (${result.turns}) without finishing`;
    case "halted":
      return `its budget ran out (${result.budgetSpent} of ${result.allowance} tokens spent)`;
  }
}

/** Halted (budget) and stopped (operator) runs are pauses a person resumes, not failures to hand back. */
export function isPause(ending: RunEnding): boolean {
  return ending.outcome === "halted" || ending.outcome === "stopped";
}

/** An ending of a run of `client`, with the client's own advice on it. */
export function endingOf(client: ModelClient, runId: string | null, outcome: string, reason: string): RunEnding {
  return { runId, outcome, reason, model: client.name, advice: client.adviceFor(reason) };
}

/** Runs `start` with a fresh run id (or carries `runId` on); a thrown failure (the model failed for good) becomes an ending, never a stuck task. */
export async function attemptRun(client: ModelClient, start: (runId: string) => Promise<{ result: RunResult }>, runId = newRunId()): Promise<Attempt> {
  try {
    const { result } = await start(runId);
    if (result.status === "done") return { runId, result, ending: null };
    return { runId, result, ending: endingOf(client, runId, result.status, reasonOf(result)) };
  } catch (error) {
    return { runId, result: null, ending: endingOf(client, runId, "failed", error instanceof Error ? error.message : String(error)) };
  }
}

// When a flight is green, the orchestrator submits its goal to the human who set it, with the proof.
import { lastSuiteRun, nextGreenGoal } from "../../../domain/flights/deliver";
import { rejectionsOf } from "../../../domain/flights/work";
import type { Observation } from "../../../domain/runs/run-events";
import { submitTask } from "../../../domain/tasks/submit";
import type { TestResults } from "../../../domain/verification/test-results";
import { type FlightPlace, placeOf } from "../../../domain/flights/place";
import type { TeamContext } from "../context";
import { speak } from "../speak";

/** The test run as a human reads it: its exit code, then the runner's own output. */
function describeRun(observation: Observation | null): string {
  const result = (observation && !observation.is_error ? observation.result : undefined) as { exitCode?: number; output?: string } | undefined;
  if (!result?.output) return JSON.stringify(observation ?? {}, null, 2);
  return `exit code ${result.exitCode}, ${result.exitCode === 0 ? "passed" : "failed"}\n\n${result.output}`;
}

/** The suite's per-test results, where its runner printed a format Quorum reads. */
function testsOf(observation: Observation | null): TestResults | undefined {
  const result = (observation && !observation.is_error ? observation.result : undefined) as { tests?: TestResults | null } | undefined;
  return result?.tests ?? undefined;
}

/** What the human does with the result: it is a branch in their repository, ready to merge. */
function howToMerge(place: FlightPlace): string {
  if (!place.source) return "";
  if (place.remote)
    return ` The work is the branch ${place.branch} on ${place.remote}; once you accept the goal, Quorum opens its pull request there (when the forge is connected in Settings → Forges).`;
  return ` The work is the branch ${place.branch} in ${place.source}; to take it: \`git -C ${place.source} merge ${place.branch}\` (or open a pull request from it).`;
}

export async function deliverGreenGoal(ctx: TeamContext): Promise<boolean> {
  const { db, clock, team } = ctx;
  const me = team.orchestrator;
  const green = await nextGreenGoal(db, me.principal.id);
  if (!green) return false;
  const suite = await lastSuiteRun(db, green.goal.id);
  const place = placeOf(green.flight);
  await submitTask(
    db,
    me.principal,
    green.goal.id,
    {
      fence: green.goal.fence,
      summary: `The goal is met: every task was reviewed, integrated into ${place.branch}, and the suite passes there.${howToMerge(place)}`,
      evidence: `Tester's run on ${place.branch} (run ${suite.runId ?? "?"}): ${describeRun(suite.observation)}`,
      // Each test's outcome on the branch, judged against the baseline: the goal's review shows what the flight fixed.
      ...(testsOf(suite.observation) && { tests: testsOf(suite.observation)! }),
    },
    clock,
  );
  await speak(
    db,
    me.principal,
    {
      // Handed in again after a request for changes, it says so: the same words twice are a repeat the relay refuses.
      body:
        (await rejectionsOf(db, green.goal.id)) > 0
          ? `The goal (task #${green.goal.number}) is met again, with the changes you asked for, and waits for your review: ${green.goal.title}`
          : `The goal (task #${green.goal.number}) is met and waits for your review: ${green.goal.title}`,
      performative: "DONE",
      taskId: green.goal.id,
    },
    clock,
    ctx.pace,
  );
  return true;
}

// When a flight is green, the orchestrator submits its goal to the human who set it, with the proof.
import { lastSuiteRun, nextGreenGoal } from "../../../server/flights/deliver";
import type { Observation } from "../../../server/journal/views/run-events";
import { submitTask } from "../../../server/tasks/submit";
import type { TeamContext } from "../context";
import { speak } from "../speak";

/** The test run as a human reads it: its exit code, then the runner's own output. */
function describeRun(observation: Observation | null): string {
  const result = (observation && !observation.is_error ? observation.result : undefined) as { exitCode?: number; output?: string } | undefined;
  if (!result?.output) return JSON.stringify(observation ?? {}, null, 2);
  return `exit code ${result.exitCode}, ${result.exitCode === 0 ? "passed" : "failed"}\n\n${result.output}`;
}

export async function deliverGreenGoal(ctx: TeamContext): Promise<boolean> {
  const { db, clock, team } = ctx;
  const me = team.orchestrator;
  const green = await nextGreenGoal(db, me.principal.id);
  if (!green) return false;
  const suite = await lastSuiteRun(db, green.goal.id);
  await submitTask(
    db,
    me.principal,
    green.goal.id,
    {
      fence: green.goal.fence,
      summary: `The goal is met: every task was reviewed, integrated into main, and the suite passes there.`,
      evidence: `Tester's run on main (run ${suite.runId ?? "?"}): ${describeRun(suite.observation)}`,
    },
    clock,
  );
  await speak(
    db,
    me.principal,
    { body: `The goal (task #${green.goal.number}) is met and waits for your review: ${green.goal.title}`, performative: "DONE", taskId: green.goal.id },
    clock,
  );
  return true;
}

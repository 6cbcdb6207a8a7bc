// The tester: after each integration, runs the real suite on the flight's branch and reports DONE with the output.
import { handGoalBack } from "../../../domain/flights/hand-back";
import { claimSuiteRound, recordSuiteRun } from "../../../domain/flights/suite";
import { startRun } from "../../run";
import { budgetForRun } from "../../../domain/budgets/run-budget";
import { placeOf } from "../../../domain/flights/place";
import { testCommandOf, thinker, type TeamContext } from "../context";
import { attemptRun } from "../run-ending";
import { SYSTEM_PROMPTS } from "../prompts";
import { testerScript } from "../scripts";
import { speak } from "../speak";
import { recordingRunTests, type TestRun } from "../recording-run-tests";
import { suiteWorktree, worktreeGit } from "../workspace";
import { flightEnvironment } from "../environment";

/** The run's tests in a line (which failed, by name, where the runner names them); the full output is in the journal. */
function summaryOf(tests: TestRun): string {
  return tests.summary ?? tests.output.slice(-600);
}

export async function testNextIntegration(ctx: TeamContext): Promise<boolean> {
  const { db, clock, team } = ctx;
  const me = team.tester;
  const round = await claimSuiteRound(db, me.principal, clock);
  if (!round) return false;
  const { flight } = round;
  const place = placeOf(flight);
  const runTests = recordingRunTests(testCommandOf(ctx, place), ctx.testTool);
  const client = thinker(ctx, "tester", testerScript, {}, flight.mode);
  const principles = await ctx.loadPrinciples();
  // A flight task's share or a flight goal's allowance when it has one, else the member's own.
  const budgetId = await budgetForRun(db, flight.goalTaskId, me.budgetId);
  const suite = suiteWorktree(place);
  const environment = await flightEnvironment(db, place);
  const { runId, result, ending } = await attemptRun(client, (runId) =>
    startRun(db, {
      runId,
      agent: me.principal,
      system: SYSTEM_PROMPTS.tester,
      task: `Run the full test suite of the repository on ${place.branch} after the latest integration (goal: ${flight.goal}).`,
      principles,
      client,
      tools: [runTests.tool],
      root: suite,
      git: worktreeGit(place, suite),
      environment,
      budgetId,
      taskId: flight.goalTaskId,
      clock,
      pace: ctx.pace,
    }),
  );
  const tests = runTests.seen.last;
  if (ending && !tests) {
    // The suite never ran: no verdict on the branch. The goal goes back to its human, the round untested for a retry.
    await handGoalBack(db, team.orchestrator.principal, flight, ending, clock, round.taskIds);
    return true;
  }
  const passed = result?.status === "done" && tests?.exitCode === 0;
  await recordSuiteRun(db, me.principal, flight, { runId, passed, exitCode: tests?.exitCode ?? null }, clock);
  await speak(
    db,
    me.principal,
    {
      body: `${passed ? `The suite passes on ${place.branch}` : `The suite FAILS on ${place.branch}`} after integrating ${round.taskIds.map((id) => id.slice(0, 8)).join(", ")} (exit code ${tests?.exitCode ?? "none: no test run"}).\n${tests ? summaryOf(tests) : `run ${runId} ended ${result?.status ?? "failed"}`}`,
      performative: passed ? "DONE" : "ERROR",
      taskId: flight.goalTaskId,
    },
    clock,
    ctx.pace,
  );
  return true;
}

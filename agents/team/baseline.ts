// The flight's baseline run: the repository's suite at the base commit, once, after the setup and before the plan,
// run as any test run is (the sandbox, the flight's environment). What fails there is recorded on the flight
// (domain/flights/baseline.ts) and told to the orchestrator, which names the tests each task must fix.
import { recordFlightBaseline } from "../../domain/flights/baseline";
import type { Flight } from "../../domain/flights/launch";
import type { FlightPlace } from "../../domain/flights/place";
import { describeTestResults, type TestResults } from "../../domain/verification/test-results";
import { runTestsTool, type TestRunResult } from "../tools/run-tests";
import { ToolFailure } from "../tools/tool";
import { testCommandOf, type TeamContext } from "./context";
import { flightEnvironment } from "./environment";
import type { Member } from "./team";
import { suiteWorktree, worktreeGit } from "./workspace";

/** The baseline's failing tests named to the orchestrator; more are summed up. */
const NAMED_TO_PLANNER = 30;

/** Runs the suite at the base commit and records it; the results, or null when the run named no tests. */
export async function runBaseline(ctx: TeamContext, me: Member, flight: Flight, place: FlightPlace): Promise<TestResults | null> {
  const tool = (ctx.testTool ?? ((argv: string[]) => runTestsTool({ command: argv })))(testCommandOf(ctx, place));
  const suite = suiteWorktree(place);
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), tool.timeoutMs ?? 120_000);
  let run: Pick<TestRunResult, "exitCode" | "tests" | "summary">;
  try {
    const result = (await tool.execute(
      {},
      {
        root: suite,
        git: worktreeGit(place, suite),
        environment: await flightEnvironment(ctx.db, place),
        signal: timeout.signal,
        runId: `baseline-${flight.id}`,
        agentId: me.principal.id,
        turn: 0,
      },
    )) as Partial<TestRunResult>;
    const tests = result.tests ?? null;
    run = { exitCode: result.exitCode ?? null, tests, summary: result.summary ?? describeTestResults(tests, result.exitCode ?? null) };
  } catch (error) {
    if (!(error instanceof ToolFailure)) throw error;
    run = { exitCode: null, tests: null, summary: `the suite did not finish at the base commit: ${error.message}` };
  } finally {
    clearTimeout(timer);
  }
  await recordFlightBaseline(ctx.db, me.principal, flight, run, ctx.clock);
  return run.tests;
}

/** What the orchestrator is told of the baseline, after the test command. */
export function baselineWords(baseline: TestResults | null): string {
  if (!baseline) return "";
  if (baseline.failed.length === 0) return " At the base commit every test it names passes.";
  const named = baseline.failed.slice(0, NAMED_TO_PLANNER).join("; ");
  const more = baseline.failed.length > NAMED_TO_PLANNER ? ` and ${baseline.failed.length - NAMED_TO_PLANNER} more` : "";
  return ` At the base commit these tests fail: ${named}${more}. Name in each task's target_tests the ones it must make pass: its review is refused until they do, and until nothing else it touches breaks.`;
}

// The tester: after each integration, runs the real suite on main and reports DONE with the output.
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import { flights, flightTasks, tasks } from "../../../db/schema";
import { appendEvent } from "../../../server/journal/append";
import { startRun } from "../../run";
import { thinker, type TeamContext } from "../context";
import { SYSTEM_PROMPTS } from "../prompts";
import { testerScript } from "../scripts";
import { speak } from "../speak";
import { recordingRunTests } from "../recording-run-tests";

/** The runner's closing tally (TAP's `# tests`, `# pass`, `# fail` lines); the full output is in the journal. */
function summaryOf(output: string): string {
  const tally = output.split("\n").filter((line) => /^# (tests|pass|fail|cancelled|skipped) \d+/.test(line.trim()));
  return tally.length ? tally.map((line) => line.trim()).join(" · ") : output.slice(-600);
}

export async function testNextIntegration(ctx: TeamContext): Promise<boolean> {
  const { db, clock, team } = ctx;
  const me = team.tester;
  const [next] = await db
    .select({ taskId: flightTasks.taskId, flight: flights })
    .from(flightTasks)
    .innerJoin(flights, eq(flights.id, flightTasks.flightId))
    .where(and(isNotNull(flightTasks.integratedAt), isNull(flightTasks.testedAt)))
    .limit(1);
  if (!next) return false;
  const { flight } = next;
  // Claim this round of testing before running it, so two testers never run one round twice.
  const claimed = await db
    .update(flightTasks)
    .set({ testedAt: clock.now() })
    .where(and(eq(flightTasks.flightId, flight.id), isNotNull(flightTasks.integratedAt), isNull(flightTasks.testedAt)))
    .returning({ taskId: flightTasks.taskId });
  if (claimed.length === 0) return false;
  const runTests = recordingRunTests(ctx.testCommand);
  const { runId, result } = await startRun(db, {
    agent: me.principal,
    system: SYSTEM_PROMPTS.tester,
    task: `Run the full test suite of the repository on main after the latest integration (goal: ${flight.goal}).`,
    principles: await ctx.loadPrinciples(),
    client: thinker(ctx, "tester", testerScript),
    tools: [runTests.tool],
    root: flight.repo,
    budgetId: me.budgetId,
    taskId: flight.goalTaskId,
    clock,
  });
  const tests = runTests.seen.last;
  const passed = result.status === "done" && tests?.exitCode === 0;
  await db.transaction(async (tx) => {
    const [open] = await tx
      .select({ n: tasks.id })
      .from(flightTasks)
      .innerJoin(tasks, eq(tasks.id, flightTasks.taskId))
      .where(and(eq(flightTasks.flightId, flight.id), isNull(flightTasks.integratedAt)))
      .limit(1);
    const status = !passed ? "red" : open ? "working" : "green";
    await tx.update(flights).set({ status, updatedAt: clock.now() }).where(eq(flights.id, flight.id));
    await appendEvent(tx, { kind: "SuiteRan", actor: me.principal.id, runId, taskId: flight.goalTaskId, t: clock.now(), data: { flightId: flight.id, passed, exitCode: tests?.exitCode ?? null, status } });
  });
  await speak(
    db,
    me.principal,
    {
      body: `${passed ? "The suite passes on main" : "The suite FAILS on main"} after integrating ${claimed.map((c) => c.taskId.slice(0, 8)).join(", ")} (exit code ${tests?.exitCode ?? "none: no test run"}).\n${tests ? summaryOf(tests.output) : `run ${runId} ended ${result.status}`}`,
      performative: passed ? "DONE" : "ERROR",
      taskId: flight.goalTaskId,
    },
    clock,
  );
  return true;
}

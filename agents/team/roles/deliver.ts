// When a flight is green, the orchestrator submits its goal to the human who set it, with the proof.
import { and, desc, eq } from "drizzle-orm";
import { events, flights, tasks } from "../../../db/schema";
import { submitTask } from "../../../server/tasks/submit";
import type { TeamContext } from "../context";
import { speak } from "../speak";

/** The test run as a human reads it: its exit code, then the runner's own output. */
function describeRun(observation: unknown): string {
  const result = (observation as { result?: { exitCode?: number; output?: string } } | undefined)?.result;
  if (!result?.output) return JSON.stringify(observation ?? {}, null, 2);
  return `exit code ${result.exitCode}, ${result.exitCode === 0 ? "passed" : "failed"}\n\n${result.output}`;
}

export async function deliverGreenGoal(ctx: TeamContext): Promise<boolean> {
  const { db, clock, team } = ctx;
  const me = team.orchestrator;
  const [green] = await db
    .select({ flight: flights, goal: tasks })
    .from(flights)
    .innerJoin(tasks, eq(tasks.id, flights.goalTaskId))
    .where(and(eq(flights.status, "green"), eq(tasks.status, "in_progress"), eq(tasks.ownerId, me.principal.id)))
    .limit(1);
  if (!green) return false;
  const [suite] = await db
    .select({ runId: events.runId })
    .from(events)
    .where(and(eq(events.kind, "SuiteRan"), eq(events.taskId, green.goal.id)))
    .orderBy(desc(events.id))
    .limit(1);
  const [output] = suite?.runId
    ? await db
        .select({ data: events.data })
        .from(events)
        .where(and(eq(events.runId, suite.runId), eq(events.kind, "ToolReturned")))
        .orderBy(desc(events.id))
        .limit(1)
    : [];
  await submitTask(
    db,
    me.principal,
    green.goal.id,
    {
      fence: green.goal.fence,
      summary: `The goal is met: every task was reviewed, integrated into main, and the suite passes there.`,
      evidence: `Tester's run on main (run ${suite?.runId ?? "?"}): ${describeRun((output?.data as { observation?: unknown })?.observation)}`,
    },
    clock,
  );
  await speak(db, me.principal, { body: `The goal (task #${green.goal.number}) is met and waits for your review: ${green.goal.title}`, performative: "DONE", taskId: green.goal.id }, clock);
  return true;
}

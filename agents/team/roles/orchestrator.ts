// The orchestrator: takes a planning flight's goal task, sets the flight up (its dependencies installed once,
// ../environment.ts), looks at the repository (read only), and decomposes the goal into tasks with criteria,
// each naming the earlier tasks of the plan it waits for.
import { z } from "zod";
import { handGoalBack, SETUP_FAILED } from "../../../domain/flights/hand-back";
import { placeOf } from "../../../domain/flights/place";
import { addFlightTask, recordFlightPlan, takeFlightToPlan } from "../../../domain/flights/plan";
import { startRun } from "../../run";
import { budgetForRun } from "../../../domain/budgets/run-budget";
import { listFilesTool } from "../../tools/list-files";
import { readFileTool } from "../../tools/read-file";
import { defineTool, ToolFailure } from "../../tools/tool";
import { MAX_TASK_WEIGHT } from "../../../domain/budgets/task-shares";
import type { Flight } from "../../../domain/flights/launch";
import { testCommandOf, thinker, type TeamContext } from "../context";
import { attemptRun, endingOf } from "../run-ending";
import { hearing } from "../hearing";
import { SYSTEM_PROMPTS } from "../prompts";
import { orchestratorScript } from "../scripts";
import { speak } from "../speak";
import { cloneAt } from "../../../domain/host-git";
import { baselineWords, runBaseline } from "../baseline";
import { ensureFlightClone } from "../workspace";
import { prepareEnvironment } from "../environment";

/** What the human can do about a failed setup (the flight's card shows its log). */
const SETUP_ADVICE =
  "Read the setup's log on the flight's card. A registry the proxy refused can be allowed with QUORUM_SETUP_HOSTS, then Retry; a command that cannot work needs a new flight with one that does (New flight → Setup command, or `quorum flight start --setup`).";

/** A plan names its tasks' dependencies by the numbers create_task returned; this many at most per task. */
const MAX_DEPENDS_ON = 10;

export async function planNextFlight(ctx: TeamContext): Promise<boolean> {
  const { db, clock, team } = ctx;
  const me = team.orchestrator;
  const taken = await takeFlightToPlan(db, me.principal, clock);
  if (!taken) return false;
  const { flight, goal } = taken;
  const place = placeOf(flight);
  ensureFlightClone(place);
  const setup = await prepareEnvironment(db, me.principal, flight, clock);
  if (!setup.ok) {
    // Nobody works without the repository's dependencies: the goal goes back to its human with the setup's reason.
    const client = thinker(ctx, "orchestrator", ({ goal }) => orchestratorScript(goal ?? ""), { goal: flight.goal }, flight.mode);
    await handGoalBack(db, me.principal, flight, { ...endingOf(client, null, SETUP_FAILED, `the setup failed: ${setup.reason}`), advice: SETUP_ADVICE }, clock);
    return true;
  }

  const baseline = await runBaseline(ctx, me, flight, place);
  const created: PlannedTask[] = [];
  const createTaskTool = createTaskToolFor(ctx, flight, created);

  const testCommand = testCommandOf(ctx, place)
    .join(" ")
    .replace(/^sh -c /, "");
  const client = thinker(ctx, "orchestrator", ({ goal }) => orchestratorScript(goal ?? ""), { goal: flight.goal }, flight.mode);
  // A flight task's share or a flight goal's allowance when it has one, else the member's own.
  const budgetId = await budgetForRun(db, goal.id, me.budgetId);
  const ears = hearing(ctx, me, client);
  const { runId, ending } = await attemptRun(client, async (runId) =>
    startRun(db, {
      runId,
      agent: me.principal,
      system: SYSTEM_PROMPTS.orchestrator,
      task: `Goal: ${flight.goal}\nThe repository is in your working directory: look at it with list_files and read_file before you plan. Its tests run with \`${testCommand}\`; the coders run them, and the tester runs them on ${place.branch} after each integration.${baselineWords(baseline)}`,
      principles: await ctx.loadPrinciples(),
      client,
      inbox: ears.inbox,
      maxMinutes: ears.maxMinutes,
      tools: [listFilesTool, readFileTool, createTaskTool],
      root: place.repo,
      git: cloneAt(place.repo),
      budgetId,
      taskId: goal.id,
      clock,
      pace: ctx.pace,
    }),
  );
  await ears.acknowledge();
  const status = await recordFlightPlan(db, me.principal, flight, { runId, tasks: created, result: ending?.outcome ?? "done" }, clock);
  if (created.length) {
    const coders = team.coders.map((coder) => `@${coder.principal.name}`).join(" ");
    const lines = created.map((task) => `#${task.number} ${task.title}${task.dependsOn.length ? ` (after ${task.dependsOn.map((n) => `#${n}`).join(", ")})` : ""}`);
    await speak(
      db,
      me.principal,
      { body: `${coders} the plan for goal #${goal.number}, ready for you:\n${lines.join("\n")}`, performative: "INFORM", taskId: goal.id },
      clock,
      ctx.pace,
    );
  }
  if (status === "red") {
    // Nothing planned: the goal goes back to the human who posted it, and Quorum tells them why.
    const why = ending ?? endingOf(client, runId, "done", "the plan has no tasks");
    await handGoalBack(db, me.principal, flight, why, clock);
  }
  return true;
}

export interface PlannedTask {
  id: string;
  number: number;
  title: string;
  dependsOn: number[];
  /** Its weight in the split of the flight's allowance (domain/budgets/task-shares.ts). */
  weight?: number;
}

/**
 * create_task for a flight's plan: files a task under the goal, reviewed by the team's reviewer, waiting
 * for the tasks of this flight it names in depends_on (`known`: numbers already on the flight, for a re-plan).
 */
export function createTaskToolFor(ctx: TeamContext, flight: Flight, created: PlannedTask[], known: { id: string; number: number }[] = []) {
  const { db, clock, team } = ctx;
  const me = team.orchestrator;
  const idsOf = async (numbers: number[]) => numbers.map((n) => (created.find((task) => task.number === n) ?? known.find((task) => task.number === n))!.id);
  const knownNumbers = known.map((task) => task.number);
  return defineTool({
    name: "create_task",
    description:
      "Create one task on the board for a coder, with acceptance criteria the reviewer can check. Tasks without dependencies are worked at once by different coders; " +
      "name in depends_on the numbers of earlier tasks of this plan that must be finished (and integrated) first. " +
      "The flight's token allowance is shared among the tasks by budget_weight: give a bigger task a bigger weight.",
    parameters: z.object({
      title: z.string().min(1).max(200),
      description: z.string().max(4000),
      acceptance_criteria: z.string().min(1).max(4000),
      depends_on: z.array(z.number().int().positive()).max(MAX_DEPENDS_ON).optional().describe("numbers of earlier tasks of this plan this one waits for"),
      budget_weight: z
        .number()
        .int()
        .min(1)
        .max(MAX_TASK_WEIGHT)
        .optional()
        .describe(`how big this task is next to the plan's others, 1 to ${MAX_TASK_WEIGHT} (default 1): its share of the flight's token allowance`),
      target_tests: z
        .array(z.string().min(1).max(500))
        .max(50)
        .optional()
        .describe("the failing tests this task must make pass, by name as the test run names them: its review is refused until each passes"),
    }),
    idempotent: false,
    async execute(args) {
      const dependsOn = [...new Set(args.depends_on ?? [])];
      const unknown = dependsOn.filter((n) => !knownNumbers.includes(n) && !created.some((task) => task.number === n));
      if (unknown.length) {
        throw new ToolFailure(
          `depends_on names ${unknown.map((n) => `#${n}`).join(", ")}, which ${unknown.length === 1 ? "is not a task" : "are not tasks"} of this flight`,
          `name only tasks of this flight: ${[...knownNumbers, ...created.map((task) => task.number)].map((n) => `#${n}`).join(", ") || "none yet"}`,
        );
      }
      const task = await addFlightTask(
        db,
        me.principal,
        flight,
        {
          title: args.title,
          description: args.description,
          acceptanceCriteria: args.acceptance_criteria,
          approverId: team.reviewer.principal.id,
          dependsOn: await idsOf(dependsOn),
          ...(args.target_tests?.length && { targetTests: args.target_tests }),
        },
        clock,
      );
      created.push({ id: task.id, number: task.number, title: task.title, dependsOn, weight: args.budget_weight });
      return { taskId: task.id, number: task.number, dependsOn };
    },
  });
}

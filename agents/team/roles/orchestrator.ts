// The orchestrator: takes a planning flight's goal task and decomposes it into tasks with criteria.
import { z } from "zod";
import { handGoalBack } from "../../../server/flights/hand-back";
import { addFlightTask, recordFlightPlan, takeFlightToPlan } from "../../../server/flights/plan";
import { startRun } from "../../run";
import { defineTool } from "../../tools/tool";
import { thinker, type TeamContext } from "../context";
import { attemptRun } from "../hand-back";
import { SYSTEM_PROMPTS } from "../prompts";
import { orchestratorScript } from "../scripts";
import { speak } from "../speak";

export async function planNextFlight(ctx: TeamContext): Promise<boolean> {
  const { db, clock, team } = ctx;
  const me = team.orchestrator;
  const taken = await takeFlightToPlan(db, me.principal, clock);
  if (!taken) return false;
  const { flight, goal } = taken;

  const created: { id: string; number: number; title: string }[] = [];
  const createTaskTool = defineTool({
    name: "create_task",
    description: "Create one task on the board for the coder, with acceptance criteria the reviewer can check.",
    parameters: z.object({
      title: z.string().min(1).max(200),
      description: z.string().max(4000),
      acceptance_criteria: z.string().min(1).max(4000),
    }),
    idempotent: false,
    async execute(args) {
      const task = await addFlightTask(
        db,
        me.principal,
        flight,
        { title: args.title, description: args.description, acceptanceCriteria: args.acceptance_criteria, approverId: team.reviewer.principal.id },
        clock,
      );
      created.push({ id: task.id, number: task.number, title: task.title });
      return { taskId: task.id, number: task.number };
    },
  });

  const client = thinker(ctx, "orchestrator", ({ goal }) => orchestratorScript(goal ?? ""), { goal: flight.goal }, flight.mode);
  const { runId, ending } = await attemptRun(client, async (runId) =>
    startRun(db, {
      runId,
      agent: me.principal,
      system: SYSTEM_PROMPTS.orchestrator,
      task: `Goal: ${flight.goal}\nThe repository is a small JavaScript project; its tests run with \`${ctx.testCommand.join(" ")}\`.`,
      principles: await ctx.loadPrinciples(),
      client,
      tools: [createTaskTool],
      root: flight.repo,
      budgetId: me.budgetId,
      taskId: goal.id,
      clock,
    }),
  );
  const status = await recordFlightPlan(db, me.principal, flight, { runId, tasks: created, result: ending?.outcome ?? "done" }, clock);
  for (const task of created) {
    await speak(db, me.principal, { body: `Task #${task.number} is ready for you: ${task.title}`, performative: "REQUEST", to: team.coder.principal.name, taskId: task.id }, clock);
  }
  if (status === "red") {
    // Nothing planned: the goal goes back to the human who posted it, and Quorum tells them why.
    const why = ending ?? { runId, outcome: "done", reason: "the plan has no tasks", model: client.name };
    await handGoalBack(db, me.principal, flight, why, clock);
  }
  return true;
}

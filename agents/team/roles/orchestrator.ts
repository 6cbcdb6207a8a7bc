// The orchestrator: takes a planning flight's goal task and decomposes it into tasks with criteria.
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { flights, flightTasks } from "../../../db/schema";
import { appendEvent } from "../../../server/journal/append";
import { claimTask } from "../../../server/tasks/claim";
import { createTask } from "../../../server/tasks/create";
import { startRun } from "../../run";
import { defineTool } from "../../tools/tool";
import { thinker, type TeamContext } from "../context";
import { SYSTEM_PROMPTS } from "../prompts";
import { orchestratorScript } from "../scripts";
import { speak } from "../speak";

export async function planNextFlight(ctx: TeamContext): Promise<boolean> {
  const { db, clock, team } = ctx;
  const me = team.orchestrator;
  const [flight] = await db.select().from(flights).where(eq(flights.status, "planning")).orderBy(flights.createdAt).limit(1);
  if (!flight) return false;
  // Moving the flight out of `planning` first is the claim: a second orchestrator finds nothing to plan.
  const [mine] = await db
    .update(flights)
    .set({ status: "working", updatedAt: clock.now() })
    .where(and(eq(flights.id, flight.id), eq(flights.status, "planning")))
    .returning();
  if (!mine) return false;
  const goal = await claimTask(db, me.principal, flight.goalTaskId, clock);

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
      const task = await createTask(
        db,
        me.principal,
        {
          title: args.title,
          description: args.description,
          acceptanceCriteria: args.acceptance_criteria,
          approverId: team.reviewer.principal.id,
          parentId: flight.goalTaskId,
        },
        clock,
      );
      await db.insert(flightTasks).values({ taskId: task.id, flightId: flight.id });
      created.push({ id: task.id, number: task.number, title: task.title });
      return { taskId: task.id, number: task.number };
    },
  });

  const { runId, result } = await startRun(db, {
    agent: me.principal,
    system: SYSTEM_PROMPTS.orchestrator,
    task: `Goal: ${flight.goal}\nThe repository is a small JavaScript project; its tests run with \`${ctx.testCommand.join(" ")}\`.`,
    principles: await ctx.loadPrinciples(),
    client: thinker(ctx, "orchestrator", ({ goal }) => orchestratorScript(goal ?? ""), { goal: flight.goal }),
    tools: [createTaskTool],
    root: flight.repo,
    budgetId: me.budgetId,
    taskId: goal.id,
    clock,
  });
  await appendEvent(db, { kind: "FlightPlanned", actor: me.principal.id, runId, taskId: goal.id, data: { flightId: flight.id, tasks: created, result: result.status } });
  for (const task of created) {
    await speak(db, me.principal, { body: `Task #${task.number} is ready for you: ${task.title}`, performative: "REQUEST", to: team.coder.principal.name, taskId: task.id }, clock);
  }
  if (created.length === 0) {
    await db.update(flights).set({ status: "red", updatedAt: clock.now() }).where(eq(flights.id, flight.id));
    await speak(db, me.principal, { body: `I could not plan the goal (${result.status}).`, performative: "ERROR", taskId: goal.id }, clock);
  }
  return true;
}

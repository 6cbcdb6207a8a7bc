// The orchestrator re-plans once per flight: a subtask the coders could not finish after its tries comes back
// to it; it looks at the repository again, cancels the task with an ADR and files what replaces it. A second
// such task in the same flight (or a flight that thinks by script, which cannot re-plan) goes to the human.
import { cloneAt } from "../../../domain/host-git";
import { z } from "zod";
import { CHOSEN_SCRIPTED, handGoalBack } from "../../../domain/flights/hand-back";
import { placeOf } from "../../../domain/flights/place";
import { recordReplan, takeHandedBack, type HandedBack } from "../../../domain/flights/replan";
import { readFlight } from "../../../domain/flights/view";
import { cancelTask } from "../../../domain/tasks/cancel";
import { startRun } from "../../run";
import { budgetForRun } from "../../../domain/budgets/run-budget";
import { listFilesTool } from "../../tools/list-files";
import { readFileTool } from "../../tools/read-file";
import { defineTool, ToolFailure } from "../../tools/tool";
import { modelOf, type TeamContext } from "../context";
import { attemptRun } from "../run-ending";
import { hearing } from "../hearing";
import { SYSTEM_PROMPTS } from "../prompts";
import { speak } from "../speak";
import { createTaskToolFor, type PlannedTask } from "./orchestrator";

function handBack(ctx: TeamContext, handed: HandedBack, why: string) {
  const model = modelOf(ctx, "orchestrator")?.name ?? "scripted";
  return handGoalBack(
    ctx.db,
    ctx.team.orchestrator.principal,
    handed.flight,
    { runId: null, outcome: "handed_back", reason: why, model, advice: "look at the task's runs on their timelines, then retry the flight or cancel the goal with an ADR" },
    ctx.clock,
  );
}

export async function replanHandedBack(ctx: TeamContext): Promise<boolean> {
  const { db, clock, team } = ctx;
  const me = team.orchestrator;
  const handed = await takeHandedBack(db, me.principal, clock);
  if (!handed) return false;
  const { flight, task, reasons } = handed;
  if (!handed.replan) {
    await handBack(ctx, handed, `task #${task.number} ${handed.cameBack}, and the flight was re-planned once already`);
    return true;
  }
  const model = modelOf(ctx, "orchestrator");
  if (!model || flight.mode === CHOSEN_SCRIPTED) {
    await handBack(ctx, handed, `task #${task.number} ${handed.cameBack}, and the scripted team cannot re-plan`);
    return true;
  }
  const view = await readFlight(db, flight.id);
  const known = view.tasks.filter((t) => t.status !== "cancelled").map((t) => ({ id: t.id, number: t.number }));
  const created: PlannedTask[] = [];
  const cancelled: number[] = [];
  const cancelTool = defineTool({
    name: "cancel_task",
    description: "Cancel a task of this flight that the plan no longer needs, saying why (it is recorded as the task's ADR).",
    parameters: z.object({ number: z.number().int().positive(), reason: z.string().min(1).max(2000) }),
    idempotent: false,
    async execute(args) {
      const target = view.tasks.find((t) => t.number === args.number);
      if (!target) throw new ToolFailure(`#${args.number} is not a task of this flight`, `name one of ${view.tasks.map((t) => `#${t.number}`).join(", ")}`);
      await cancelTask(
        db,
        me.principal,
        target.id,
        {
          adr: {
            title: `Re-planned: #${target.number} ${target.title}`.slice(0, 200),
            context: `#${task.number} ${handed.cameBack}: ${reasons.join("; ")}`.slice(0, 4000),
            decision: args.reason,
            consequences: "The tasks filed by this re-plan replace it.",
          },
        },
        clock,
      );
      cancelled.push(target.number);
      return { cancelled: target.number };
    },
  });
  const plan = view.tasks.map((t) => `#${t.number} ${t.title} (${t.status}${t.dependsOn.length ? `, after ${t.dependsOn.map((n) => `#${n}`).join(", ")}` : ""})`).join("\n");
  const principles = await ctx.loadPrinciples();
  // A flight task's share or a flight goal's allowance when it has one, else the member's own.
  const budgetId = await budgetForRun(db, flight.goalTaskId, me.budgetId);
  const ears = hearing(ctx, me, model);
  const { runId } = await attemptRun(model, (runId) =>
    startRun(db, {
      runId,
      agent: me.principal,
      system: SYSTEM_PROMPTS.orchestrator,
      task: `Goal: ${flight.goal}\nRe-plan: task #${task.number} "${task.title}" ${handed.cameBack}; why each try ended:\n${reasons.map((r, i) => `${i + 1}. ${r}`).join("\n")}\n\nThe plan so far:\n${plan}\n\nLook at the repository again, cancel the task with cancel_task, and file with create_task what reaches the goal instead (depends_on may name tasks of the plan so far). You re-plan once: a task that fails again goes to the human.`,
      principles,
      client: model,
      inbox: ears.inbox,
      maxMinutes: ears.maxMinutes,
      tools: [listFilesTool, readFileTool, createTaskToolFor(ctx, flight, created, known), cancelTool],
      root: placeOf(flight).repo,
      git: cloneAt(placeOf(flight).repo),
      budgetId,
      taskId: flight.goalTaskId,
      clock,
      pace: ctx.pace,
    }),
  );
  await ears.acknowledge();
  await recordReplan(db, me.principal, handed, { runId, cancelled, created }, clock);
  if (created.length === 0 && cancelled.length === 0) {
    await handBack(ctx, handed, `task #${task.number} ${handed.cameBack}, and the re-plan changed nothing`);
    return true;
  }
  const coders = team.coders.map((coder) => `@${coder.principal.name}`).join(" ");
  const lines = created.map((t) => `#${t.number} ${t.title}${t.dependsOn.length ? ` (after ${t.dependsOn.map((n) => `#${n}`).join(", ")})` : ""}`);
  await speak(
    db,
    me.principal,
    {
      body: `${coders} I re-planned around #${task.number}${cancelled.length ? ` (cancelled ${cancelled.map((n) => `#${n}`).join(", ")})` : ""}${lines.length ? `:\n${lines.join("\n")}` : "."}`,
      performative: "INFORM",
      taskId: flight.goalTaskId,
    },
    clock,
    ctx.pace,
  );
  return true;
}

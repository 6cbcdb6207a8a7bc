// The coder: claim-next within a working flight, change the code in a worktree, submit the diff.
import { and, eq, inArray } from "drizzle-orm";
import { events, flights, flightTasks, messages, tasks } from "../../../db/schema";
import { appendEvent } from "../../../server/journal/append";
import { QuorumError } from "../../../server/errors";
import { claimNextTask } from "../../../server/tasks/claim-next";
import { submitTask } from "../../../server/tasks/submit";
import { readTaskView, type TaskView } from "../../../server/tasks/view";
import { startRun } from "../../run";
import { readFileTool } from "../../tools/read-file";
import { editFileTool } from "../../tools/edit-file";
import { thinker, type TeamContext } from "../context";
import { SYSTEM_PROMPTS } from "../prompts";
import { coderScript } from "../scripts";
import { speak } from "../speak";
import { commitAndDiff, ensureWorktree } from "../workspace";
import { recordingRunTests } from "../recording-run-tests";

/** After this many rejections the coder stops reworking and says so: a loop is for the humans to break. */
export const MAX_REJECTIONS = 3;

/** A rejected task comes back to its owner in progress; rework it if no run of ours began since. */
async function rejectedTask(ctx: TeamContext): Promise<{ task: TaskView; repo: string; rejections: number } | null> {
  const me = ctx.team.coder.principal.id;
  const mine = await ctx.db
    .select({ id: tasks.id, repo: flights.repo })
    .from(tasks)
    .innerJoin(flightTasks, eq(flightTasks.taskId, tasks.id))
    .innerJoin(flights, eq(flights.id, flightTasks.flightId))
    .where(and(eq(tasks.status, "in_progress"), eq(tasks.ownerId, me)));
  for (const { id, repo } of mine) {
    const history = await ctx.db
      .select({ kind: events.kind, actor: events.actor, data: events.data })
      .from(events)
      .where(and(eq(events.taskId, id), inArray(events.kind, ["TaskReviewed", "RunStarted", "ReworkAbandoned"])))
      .orderBy(events.id);
    const last = history.at(-1);
    const rejections = history.filter((e) => e.kind === "TaskReviewed" && (e.data as { verdict?: string }).verdict === "reject").length;
    if (last?.kind === "TaskReviewed" && (last.data as { verdict?: string }).verdict === "reject") {
      return { task: await readTaskView(ctx.db, id), repo, rejections };
    }
  }
  return null;
}

async function claimWithinFlights(ctx: TeamContext): Promise<{ task: TaskView; repo: string } | null> {
  const working = await ctx.db.select().from(flights).where(eq(flights.status, "working"));
  for (const flight of working) {
    const task = await claimNextTask(ctx.db, ctx.team.coder.principal, ctx.clock, { parentId: flight.goalTaskId });
    if (task) return { task, repo: flight.repo };
  }
  return null;
}

async function requestFor(ctx: TeamContext, taskId: string): Promise<number | null> {
  const [request] = await ctx.db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.taskId, taskId), eq(messages.performative, "REQUEST"), inArray(messages.toId, [ctx.team.coder.principal.id])))
    .orderBy(messages.id)
    .limit(1);
  return request?.id ?? null;
}

export async function codeNextTask(ctx: TeamContext): Promise<boolean> {
  const { db, clock, team } = ctx;
  const me = team.coder;
  const rework = await rejectedTask(ctx);
  if (rework && rework.rejections >= MAX_REJECTIONS) {
    // Mark it as seen with a run-less refusal: one ERROR, then the task waits for a human.
    await speak(db, me.principal, { body: `Task #${rework.task.number} was rejected ${rework.rejections} times; I stop here and need a human.`, performative: "ERROR", taskId: rework.task.id }, clock);
    await appendEvent(db, { kind: "ReworkAbandoned", actor: me.principal.id, taskId: rework.task.id, data: { rejections: rework.rejections } });
    return true;
  }
  const claimed = rework ?? (await claimWithinFlights(ctx));
  if (!claimed) return false;
  const { task, repo } = claimed;
  const worktree = ensureWorktree(repo, task.id);
  const runTests = recordingRunTests(ctx.testCommand);
  const { result } = await startRun(db, {
    agent: me.principal,
    system: SYSTEM_PROMPTS.coder,
    task: `Task #${task.number}: ${task.title}\n${task.description}\nAcceptance criteria: ${task.acceptanceCriteria}`,
    principles: await ctx.loadPrinciples(),
    client: thinker(ctx, "coder", coderScript),
    tools: [readFileTool, editFileTool, runTests.tool],
    root: worktree,
    budgetId: me.budgetId,
    taskId: task.id,
    requestId: await requestFor(ctx, task.id),
    clock,
  });
  if (result.status !== "done") {
    await speak(db, me.principal, { body: `I could not finish task #${task.number}: the run ended ${result.status}.`, performative: "ERROR", taskId: task.id }, clock);
    return true;
  }
  const diff = commitAndDiff(worktree, `Task #${task.number}: ${task.title}`);
  const tests = runTests.seen.last;
  const evidence = [
    `diff against main:\n${diff || "(no changes)"}`,
    tests ? `test run: exit code ${tests.exitCode}\n${tests.output}` : "no test run",
    ...result.evidence,
  ].join("\n\n");
  try {
    await submitTask(db, me.principal, task.id, { fence: task.fence, summary: result.summary, evidence }, clock);
  } catch (error) {
    // A stale fence means the lease expired and someone else holds the task now: our work is theirs to redo.
    if (error instanceof QuorumError && error.code === "stale_fence") return true;
    throw error;
  }
  await speak(db, me.principal, { body: `Task #${task.number} is ready for review (round ${(rework?.rejections ?? 0) + 1}): ${result.summary}`, performative: "DONE", to: task.approverName, taskId: task.id }, clock);
  return true;
}

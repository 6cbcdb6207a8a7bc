// A coder: claim-next within a working flight (one coder per task; several coders work at once), change the
// code in the task's own worktree, submit the diff with the real test run as evidence.
import { QuorumError } from "../../../domain/errors";
import { giveUpSubtask, releaseSubtask } from "../../../domain/flights/hand-back";
import type { FlightPlace } from "../../../domain/flights/place";
import { nextCoderStep } from "../../../domain/flights/coder-step";
import { type FlightWork, rejectionsOf } from "../../../domain/flights/work";
import type { RunResult } from "../../../domain/runs/run-events";
import { submitTask } from "../../../domain/tasks/submit";
import { resumeRun } from "../../resume";
import { type RunEnvironment, startRun } from "../../run";
import { taskKeeper } from "../../task-keeper";
import { editFileTool } from "../../tools/edit-file";
import { readFileTool } from "../../tools/read-file";
import { modelOf, type TeamContext, testCommandOf, thinker } from "../context";
import { attemptRun, isPause } from "../run-ending";
import { SYSTEM_PROMPTS } from "../prompts";
import { hearing } from "../hearing";
import { lastTestRunOf, recordingRunTests, type TestRun } from "../recording-run-tests";
import { storedWorkOf } from "../stored-work";
import { coderScript } from "../scripts";
import { speak } from "../speak";
import type { Member } from "../team";
import { commitAndDiff, diffAsEvidence, ensureWorktree, restartFromFlightBranch, treeOf, worktreeGit } from "../workspace";
import { flightEnvironment } from "../environment";

/** After this many rejections the coder stops reworking and says so: a loop is for the humans to break. */
export const MAX_REJECTIONS = 3;

/** What the coder is asked: the task, why it is back when it was sent back, and what an earlier holder left. */
function taskPrompt(work: FlightWork, rework: string | null, reopened: string | null, stored: string | null): string {
  const { task } = work;
  const lines = [`Task #${task.number}: ${task.title}`, task.description, `Acceptance criteria: ${task.acceptanceCriteria}`];
  if (rework) lines.push(`Your reviewer asked for changes; rework the task from what they said:\n${rework}`);
  if (reopened) lines.push(`This task was sent back after it was accepted, and starts again from ${work.place.branch} as integrated now:\n${reopened}`);
  if (stored) lines.push(stored);
  return lines.join("\n");
}

export async function codeNextTask(ctx: TeamContext, me: Member): Promise<boolean> {
  const { db, clock } = ctx;
  const step = await nextCoderStep(db, me.principal, me.budgetId, clock, MAX_REJECTIONS);
  if (!step) return false;
  if (step.kind === "carry-on") {
    const worktree = ensureWorktree(step.work.place, step.work.task.id);
    await workOn(ctx, me, step.work, worktree, (env) => resumeRun(db, step.runId, env), step.runId);
    return true;
  }
  const { task, place } = step.work;
  if (step.kind === "give-up") {
    // Given up, not held: the task goes back to be re-planned, or to its human (domain/flights/hand-back.ts).
    await giveUpSubtask(db, me.principal, task.id, { rejections: step.rejections, lastReview: step.lastReview, model: modelOf(ctx, "coder")?.name ?? "scripted" }, clock);
    await speak(
      db,
      me.principal,
      {
        body: `Task #${task.number} was rejected ${step.rejections} times; I give it up: the orchestrator re-plans it, or it goes back to a human.`,
        performative: "ERROR",
        taskId: task.id,
      },
      clock,
      ctx.pace,
    );
    return true;
  }
  const { reopened } = step;
  const stored = step.rework || reopened ? null : await storedWorkOf(db, task);
  const worktree = reopened ? restartFromFlightBranch(place, task.id) : ensureWorktree(place, task.id);
  const principles = await ctx.loadPrinciples();
  await workOn(ctx, me, step.work, worktree, (env, runId) =>
    startRun(db, {
      ...env,
      runId,
      agent: me.principal,
      system: SYSTEM_PROMPTS.coder,
      task: taskPrompt(step.work, step.rework, reopened, stored),
      principles,
      budgetId: step.budgetId,
      taskId: task.id,
      requestId: step.requestId,
      workspace: { tree: treeOf(place, worktree) },
    }).then(({ result }) => result),
  );
  return true;
}

/** Drives one run of the coder on a task it holds (started or carried on), and does what its ending asks. */
async function workOn(
  ctx: TeamContext,
  me: Member,
  work: FlightWork,
  worktree: string,
  drive: (env: RunEnvironment, runId: string) => Promise<RunResult>,
  runId?: string,
): Promise<void> {
  const { db, clock } = ctx;
  const { task, place } = work;
  const runTests = recordingRunTests(testCommandOf(ctx, place), ctx.testTool);
  const client = thinker(ctx, "coder", coderScript, {}, place.mode);
  const ears = hearing(ctx, me, client);
  const keeper = taskKeeper({ db, agent: me.principal, task, clock });
  const env: RunEnvironment = {
    client,
    tools: [readFileTool, editFileTool, runTests.tool],
    root: worktree,
    git: worktreeGit(place, worktree),
    environment: await flightEnvironment(db, place),
    inbox: ears.inbox,
    keeper,
    maxMinutes: ears.maxMinutes,
    clock,
    pace: ctx.pace,
  };
  const { result, ending, runId: ran } = await attemptRun(client, (id) => drive(env, id).then((result) => ({ result })), runId).finally(() => keeper.close());
  await ears.acknowledge();
  if (keeper.lost()) return; // The task is someone else's now (or nobody's): nothing of ours to say or submit.
  if (ending && isPause(ending)) {
    // Halted on its budget or stopped (an operator, its wall clock): a pause, not a failure. The task stays with
    // the run, which a human resumes (Resume on its timeline, `quorum run resume`); its lease bounds the wait.
    await speak(
      db,
      me.principal,
      { body: `I paused on task #${task.number}: ${ending.reason}. Resume run ${ran} to carry on.`, performative: "ERROR", taskId: task.id },
      clock,
      ctx.pace,
    );
    return;
  }
  if (ending) {
    // Released at once (never left to its lease): back to ready, the reason on record, tried again after a
    // cool-down. Quorum tells the human once per streak of failures; the coder does not repeat it each time.
    await releaseSubtask(db, me.principal, task.id, ending, clock, ctx.releaseCoolDownMs);
    return;
  }
  const tests = runTests.seen.last ?? (await lastTestRunOf(db, ran));
  await submitCoderWork(ctx, me, { work, worktree, result, tests, round: (await rejectionsOf(db, task.id)) + 1 });
}

export interface CoderWork {
  work: { task: FlightWork["task"]; place: FlightPlace };
  worktree: string;
  result: Extract<RunResult, { status: "done" }>;
  /** The last test run the coder's run made, as run_tests returned it (never the run's own claim). */
  tests: TestRun | undefined;
  /** Which round of review this submission opens. */
  round: number;
}

/**
 * What a coder does once its run is done: commit the worktree, submit the task with the diff and the real
 * test run as evidence, and tell its approver. A resumed run (`quorum run resume`) ends here too.
 */
export async function submitCoderWork(
  ctx: Pick<TeamContext, "db" | "clock" | "pace">,
  me: Pick<Member, "principal">,
  { work, worktree, result, tests, round }: CoderWork,
): Promise<void> {
  const { db, clock } = ctx;
  const { task, place } = work;
  const diff = commitAndDiff(place, worktree, `Task #${task.number}: ${task.title}`);
  const evidence = [
    `diff against ${place.branch}:\n${diff ? diffAsEvidence(diff) : "(no changes)"}`,
    tests ? `test run: exit code ${tests.exitCode}${tests.summary ? `\ntests: ${tests.summary}` : ""}\n${tests.output}` : "no test run",
    ...result.evidence,
  ].join("\n\n");
  try {
    // The per-test results are run_tests' own, never the model's words: the review's gate judges by them.
    await submitTask(db, me.principal, task.id, { fence: task.fence, summary: result.summary, evidence, ...(tests?.tests && { tests: tests.tests }) }, clock);
  } catch (error) {
    // A stale fence means the lease expired and someone else holds the task now: our work is theirs to redo.
    if (error instanceof QuorumError && error.code === "stale_fence") return;
    throw error;
  }
  await speak(
    db,
    me.principal,
    { body: `Task #${task.number} is ready for review (round ${round}): ${result.summary}`, performative: "DONE", to: task.approverName, taskId: task.id },
    clock,
    ctx.pace,
  );
}

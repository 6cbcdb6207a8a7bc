// The coder: claim-next within a working flight, change the code in a worktree, submit the diff.
import { QuorumError } from "../../../server/errors";
import { releaseSubtask } from "../../../server/flights/hand-back";
import { abandonRework, claimNextFlightTask, nextRework, requestAddressedTo } from "../../../server/flights/work";
import { submitTask } from "../../../server/tasks/submit";
import { startRun } from "../../run";
import { readFileTool } from "../../tools/read-file";
import { editFileTool } from "../../tools/edit-file";
import { thinker, type TeamContext } from "../context";
import { attemptRun, isPause } from "../hand-back";
import { SYSTEM_PROMPTS } from "../prompts";
import { coderScript } from "../scripts";
import { speak } from "../speak";
import { commitAndDiff, ensureWorktree } from "../workspace";
import { recordingRunTests } from "../recording-run-tests";

/** After this many rejections the coder stops reworking and says so: a loop is for the humans to break. */
export const MAX_REJECTIONS = 3;

export async function codeNextTask(ctx: TeamContext): Promise<boolean> {
  const { db, clock, team } = ctx;
  const me = team.coder;
  const rework = await nextRework(db, me.principal.id);
  if (rework && rework.rejections >= MAX_REJECTIONS) {
    // Mark it as seen with a run-less refusal: one ERROR, then the task waits for a human.
    await speak(
      db,
      me.principal,
      { body: `Task #${rework.task.number} was rejected ${rework.rejections} times; I stop here and need a human.`, performative: "ERROR", taskId: rework.task.id },
      clock,
    );
    await abandonRework(db, me.principal, rework.task.id, rework.rejections, clock);
    return true;
  }
  const claimed = rework ?? (await claimNextFlightTask(db, me.principal, clock));
  if (!claimed) return false;
  const { task, repo, mode } = claimed;
  const worktree = ensureWorktree(repo, task.id);
  const runTests = recordingRunTests(ctx.testCommand);
  const client = thinker(ctx, "coder", coderScript, {}, mode);
  const requestId = await requestAddressedTo(db, task.id, me.principal.id);
  const principles = await ctx.loadPrinciples();
  const { result, ending } = await attemptRun(client, (runId) =>
    startRun(db, {
      runId,
      agent: me.principal,
      system: SYSTEM_PROMPTS.coder,
      task: `Task #${task.number}: ${task.title}\n${task.description}\nAcceptance criteria: ${task.acceptanceCriteria}`,
      principles,
      client,
      tools: [readFileTool, editFileTool, runTests.tool],
      root: worktree,
      budgetId: me.budgetId,
      taskId: task.id,
      requestId,
      clock,
    }),
  );
  if (ending && isPause(ending)) {
    // Halted on its budget or stopped by an operator: a pause, not a failure. The task stays with the run
    // so that `quorum run resume` carries it on (after a top-up, say); its lease bounds the wait.
    await speak(db, me.principal, { body: `I paused on task #${task.number}: the run ended ${ending.outcome}.`, performative: "ERROR", taskId: task.id }, clock);
    return true;
  }
  if (ending) {
    // Released at once (never left to its lease): back to ready, the reason on record, tried again after a
    // cool-down. Quorum tells the human once per streak of failures; the coder does not repeat it each time.
    await releaseSubtask(db, me.principal, task.id, ending, clock);
    return true;
  }
  const diff = commitAndDiff(worktree, `Task #${task.number}: ${task.title}`);
  const tests = runTests.seen.last;
  const evidence = [`diff against main:\n${diff || "(no changes)"}`, tests ? `test run: exit code ${tests.exitCode}\n${tests.output}` : "no test run", ...result.evidence].join(
    "\n\n",
  );
  try {
    await submitTask(db, me.principal, task.id, { fence: task.fence, summary: result.summary, evidence }, clock);
  } catch (error) {
    // A stale fence means the lease expired and someone else holds the task now: our work is theirs to redo.
    if (error instanceof QuorumError && error.code === "stale_fence") return true;
    throw error;
  }
  await speak(
    db,
    me.principal,
    { body: `Task #${task.number} is ready for review (round ${(rework?.rejections ?? 0) + 1}): ${result.summary}`, performative: "DONE", to: task.approverName, taskId: task.id },
    clock,
  );
  return true;
}

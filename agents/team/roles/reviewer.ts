// The reviewer: sees only the diff and the evidence of a task it approves, and answers ACCEPT or REJECT.
import { tmpdir } from "node:os";
import { z } from "zod";
import { releaseSubtask } from "../../../domain/flights/hand-back";
import { flightOfTask } from "../../../domain/flights/place";
import { flightModeOf, nextTaskToReview } from "../../../domain/flights/review";
import { getTaskDetail } from "../../../domain/tasks/get";
import { reviewTask } from "../../../domain/tasks/review";
import { startRun } from "../../run";
import { budgetForRun } from "../../../domain/budgets/run-budget";
import { defineTool } from "../../tools/tool";
import { QuorumError } from "../../../domain/errors";
import { thinker, type TeamContext } from "../context";
import type { Member } from "../team";
import { attemptRun, endingOf } from "../run-ending";
import { hearing } from "../hearing";
import { SYSTEM_PROMPTS } from "../prompts";
import { reviewerScript } from "../scripts";
import { speak } from "../speak";
import { branchDiff, diffAsEvidence } from "../workspace";

type Verdict = { verdict: "accept" | "reject"; reason: string };

/** What the task's own tests say, from run_tests' results (never the author's words): the gate an ACCEPT must pass. */
function testsWords({ task, tests }: Awaited<ReturnType<typeof getTaskDetail>>): string {
  if (!tests.submitted) return "";
  const targets = task.targetTests.length ? `Its target tests: ${task.targetTests.join("; ")}. ` : "";
  return `\n\nThe tests: ${targets}${tests.refusal ? `The tests refuse an ACCEPT now — ${tests.refusal}.` : "Its target tests pass and nothing is newly broken."}`;
}

/** The diff is read from git (the task's branch against its flight's), not taken from the author's word. */
async function diffOf(ctx: TeamContext, taskId: string): Promise<string> {
  const found = await flightOfTask(ctx.db, taskId);
  // A diff past the cap is cut with what was left out said: the model reads it within its context.
  return found && !found.isGoal ? diffAsEvidence(branchDiff(found.place, taskId)) : "";
}

export async function reviewNextTask(ctx: TeamContext): Promise<boolean> {
  const { db, clock, team } = ctx;
  const me = team.reviewer;
  const taskId = await nextTaskToReview(db, me.principal.id, clock.now());
  if (!taskId) return false;
  const detail = await getTaskDetail(db, me.principal, taskId);
  const submission = detail.evidence.filter((e) => e.kind === "submission").at(-1);
  const evidence = submission?.evidence ?? "";
  const diff = await diffOf(ctx, taskId);

  let verdict: Verdict | undefined;
  const verdictTool = defineTool({
    name: "verdict",
    description: "Give your verdict on the change: accept, or reject with a reason the author can act on.",
    parameters: z.object({ verdict: z.enum(["accept", "reject"]), reason: z.string().min(1).max(4000) }),
    idempotent: true,
    async execute(args) {
      verdict = args;
      return { recorded: args.verdict };
    },
  });
  const client = thinker(ctx, "reviewer", (input) => reviewerScript(input.diff ?? "", input.evidence ?? ""), { diff, evidence }, await flightModeOf(db, taskId));
  const principles = await ctx.loadPrinciples();
  // A flight task's share or a flight goal's allowance when it has one, else the member's own.
  const budgetId = await budgetForRun(db, taskId, me.budgetId);
  const ears = hearing(ctx, me, client);
  const { ending } = await attemptRun(client, (runId) =>
    startRun(db, {
      runId,
      agent: me.principal,
      system: SYSTEM_PROMPTS.reviewer,
      task: `Acceptance criteria: ${detail.task.acceptanceCriteria}\n\nThe diff:\n${diff || "(no diff)"}\n\nThe evidence submitted:\n${evidence}${testsWords(detail)}`,
      principles,
      client,
      inbox: ears.inbox,
      maxMinutes: ears.maxMinutes,
      tools: [verdictTool],
      // The reviewer has no file tools: it judges the diff and the evidence, nothing else.
      root: tmpdir(),
      budgetId,
      taskId,
      clock,
      pace: ctx.pace,
    }),
  );
  await ears.acknowledge();
  if (ending || !verdict) {
    // The task stays in review; the reason is on record and the review is tried again after a cool-down.
    await releaseSubtask(db, me.principal, taskId, ending ?? endingOf(client, null, "done", "the run ended without a verdict"), clock, ctx.releaseCoolDownMs);
    return true;
  }
  const given = await reviewWithTestsGate(ctx, me, taskId, verdict);
  verdict = given;
  await speak(
    db,
    me.principal,
    {
      // The round number keeps a repeated verdict from being a verbatim duplicate (which the relay refuses).
      body: `${verdict.verdict === "accept" ? "ACCEPT" : "REJECT"} task #${detail.task.number} (review ${detail.reviews.length + 1}): ${verdict.reason}`,
      performative: verdict.verdict === "accept" ? "ACCEPT" : "REJECT",
      to: detail.task.ownerName ?? undefined,
      taskId,
    },
    clock,
    ctx.pace,
  );
  return true;
}

/**
 * The verdict as recorded: an ACCEPT the tests refuse (domain/tasks/review.ts) becomes a REJECT in the tests' own
 * words, so the owner learns which tests to fix rather than the task waiting on a verdict nobody can give.
 */
async function reviewWithTestsGate(ctx: TeamContext, me: Member, taskId: string, verdict: Verdict): Promise<Verdict> {
  const { db, clock } = ctx;
  try {
    await reviewTask(db, me.principal, taskId, verdict.verdict === "accept" ? { verdict: "accept", reason: verdict.reason } : { verdict: "reject", reason: verdict.reason }, clock);
    return verdict;
  } catch (error) {
    if (!(error instanceof QuorumError && error.code === "tests_refuse")) throw error;
    const refused: Verdict = { verdict: "reject", reason: `The tests refuse the accept — ${String(error.extra.refusal ?? error.message)}. (My review said: ${verdict.reason})` };
    await reviewTask(db, me.principal, taskId, { verdict: "reject", reason: refused.reason.slice(0, 4_000) }, clock);
    return refused;
  }
}

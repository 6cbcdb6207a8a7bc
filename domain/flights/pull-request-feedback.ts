// What comes back from a flight's pull request becomes rework on the flight, as a Quorum review's changes do
// (./changes.ts): a review that requests changes, with each of its line comments by file and line, and a check run
// that failed on the pull request's head, with its annotations and the end of its log. Each is filed once (by the
// forge's id for it); the coder's fix is integrated and pushed to the same branch, which updates the pull request.
// Everything read here was written on the forge by whoever can comment there: it is text for the coder's model to
// weigh, capped, never a command the hub runs.
import type { Octokit } from "@octokit/rest";
import { and, eq, inArray } from "drizzle-orm";
import { flights, type PullRequestCheck, pullRequestFeedback } from "../../db/schema";
import type { Db } from "../../db/client";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { commentLine } from "../tasks/comments";
import { fileRework } from "./changes";
import type { Flight } from "./launch";

/** A failed check's log is kept to its end: where a test runner prints what failed. */
const LOG_TAIL_CHARS = 6_000;
const FAILED = new Set(["failure", "timed_out"]);

export interface Feedback {
  kind: "review" | "check";
  /** The review's or the check run's id on the forge. */
  forgeId: number;
  title: string;
  asked: string;
  /** Line comments or annotations, by file and line. */
  lines: number;
  /** Who asked (a review's author) or what failed (a check's name). */
  from: string;
}

interface Forge {
  github: Octokit;
  where: { owner: string; repo: string };
}

/** The reviews of the pull request that asked for changes, each with its line comments. */
async function reviewsAskingChanges({ github, where }: Forge, number: number, url: string): Promise<Feedback[]> {
  const reviews = await github.paginate(github.rest.pulls.listReviews, { ...where, pull_number: number, per_page: 100 });
  const asked: Feedback[] = [];
  for (const review of reviews) {
    if (review.state !== "CHANGES_REQUESTED") continue;
    const comments = await github.paginate(github.rest.pulls.listCommentsForReview, { ...where, pull_number: number, review_id: review.id, per_page: 100 });
    const login = review.user?.login ?? "a reviewer";
    const lines = comments.map((c) =>
      commentLine({
        path: c.path,
        side: c.side === "LEFT" ? "old" : "new",
        line: c.start_line ?? c.line ?? c.original_line ?? 1,
        endLine: c.line ?? c.original_line ?? 1,
        body: c.body,
      }),
    );
    asked.push({
      kind: "review",
      forgeId: review.id,
      title: `Changes asked for on pull request #${number} by @${login}`,
      asked: [
        `@${login} reviewed the flight's pull request #${number} (${url}) and asked for changes:`,
        review.body || "(no summary; see the lines)",
        ...(lines.length ? ["On the lines of the change:", ...lines] : []),
      ].join("\n"),
      lines: lines.length,
      from: `@${login}`,
    });
  }
  return asked;
}

/** The check runs on the pull request's head, and those that failed, each with its annotations and the end of its log. */
async function checksOf({ github, where }: Forge, number: number, head: string): Promise<{ checks: PullRequestCheck[]; failed: Feedback[] }> {
  const { data } = await github.rest.checks.listForRef({ ...where, ref: head, filter: "latest", per_page: 100 });
  const checks = data.check_runs.map((run) => ({ name: run.name, status: run.status, conclusion: run.conclusion, url: run.html_url }));
  const failed: Feedback[] = [];
  for (const run of data.check_runs) {
    if (run.status !== "completed" || !FAILED.has(run.conclusion ?? "")) continue;
    const annotations = run.output.annotations_count ? await github.paginate(github.rest.checks.listAnnotations, { ...where, check_run_id: run.id, per_page: 100 }) : [];
    const lines = annotations.map((a) =>
      commentLine({
        path: a.path,
        side: "new",
        line: a.start_line,
        endLine: a.end_line,
        body: `${a.annotation_level ?? "failure"}: ${a.title ? `${a.title}: ` : ""}${a.message ?? ""}`,
      }),
    );
    const log = run.output.text ? run.output.text.slice(-LOG_TAIL_CHARS) : "";
    failed.push({
      kind: "check",
      forgeId: run.id,
      title: `Check "${run.name}" failed on pull request #${number}`,
      asked: [
        `The check "${run.name}" ended ${run.conclusion} on the flight's pull request #${number} (commit ${head.slice(0, 12)}, ${run.html_url ?? "no page"}). Make it pass:`,
        ...[run.output.title, run.output.summary].filter((s): s is string => !!s),
        ...(lines.length ? ["Where it failed:", ...lines] : []),
        ...(log ? ["The end of its log:", "```", log, "```"] : []),
      ].join("\n"),
      lines: lines.length,
      from: run.name,
    });
  }
  return { checks, failed };
}

/** The pull request's checks now, and what it says that the team has not answered: reviews asking changes, failed checks. */
export async function feedbackOf(
  db: Db,
  forge: Forge,
  flight: Flight,
  pull: { number: number; html_url: string; head: { sha: string } },
): Promise<{ checks: PullRequestCheck[]; feedback: Feedback[] }> {
  const { checks, failed } = await checksOf(forge, pull.number, pull.head.sha);
  const found = [...(await reviewsAskingChanges(forge, pull.number, pull.html_url)), ...failed];
  if (!found.length) return { checks, feedback: [] };
  const answered = await db
    .select({ kind: pullRequestFeedback.kind, forgeId: pullRequestFeedback.forgeId })
    .from(pullRequestFeedback)
    .where(
      and(
        eq(pullRequestFeedback.flightId, flight.id),
        inArray(
          pullRequestFeedback.forgeId,
          found.map((f) => f.forgeId),
        ),
      ),
    );
  return { checks, feedback: found.filter((f) => !answered.some((a) => a.kind === f.kind && a.forgeId === f.forgeId)) };
}

/**
 * Files each piece of feedback as a task of the flight (once: a second reader finds it filed and skips it), and
 * journals FlightPullRequestFeedback with it; the tasks filed, in order.
 */
export async function fileFeedback(
  db: Db,
  orchestrator: Principal,
  reviewerId: string,
  flightId: string,
  pullRequest: number,
  feedback: Feedback[],
  now: Date,
): Promise<{ id: string; number: number; title: string }[]> {
  return db.transaction(async (tx) => {
    const [flight] = await tx.select().from(flights).where(eq(flights.id, flightId)).for("update");
    if (!flight || flight.mergedAt || flight.closedAt) return [];
    const filed: { id: string; number: number; title: string }[] = [];
    let current: Flight = flight;
    for (const item of feedback) {
      const [seen] = await tx
        .select({ id: pullRequestFeedback.id })
        .from(pullRequestFeedback)
        .where(and(eq(pullRequestFeedback.flightId, flight.id), eq(pullRequestFeedback.kind, item.kind), eq(pullRequestFeedback.forgeId, item.forgeId)));
      if (seen) continue;
      const { task, flight: working } = await fileRework(tx, orchestrator, reviewerId, current, flight.goalTaskId, item, now);
      current = working;
      await tx.insert(pullRequestFeedback).values({ flightId: flight.id, kind: item.kind, forgeId: item.forgeId, taskId: task.id, createdAt: now });
      await appendEvent(tx, {
        kind: "FlightPullRequestFeedback",
        actor: orchestrator.id,
        taskId: flight.goalTaskId,
        t: now,
        data: { flightId: flight.id, number: flight.number, pullRequest, feedback: item.kind, forgeId: item.forgeId, from: item.from, lines: item.lines, task: task.number },
      });
      filed.push({ id: task.id, number: task.number, title: task.title });
    }
    return filed;
  });
}

// A flight's pull request as people see it: where it is, its checks as last read from the forge, and what came back
// from it as the team's rework (each review or failed check with the task filed for it, and how that task stands).
import { and, asc, eq, inArray } from "drizzle-orm";
import { events, flightTasks, type PullRequestCheck, pullRequestFeedback, tasks, type TaskStatus } from "../../db/schema";
import type { Executor } from "../../db/client";
import type { Flight } from "./launch";
import { checkState } from "./pull-request-checks";

export interface PullRequestView {
  number: number;
  url: string;
  /** Opened as a draft (green before its goal was accepted) and not marked ready yet. */
  draft: boolean;
  /** When the hub last read it from the forge; null before the first look. */
  checkedAt: string | null;
  checks: (PullRequestCheck & { state: "passed" | "failed" | "pending" })[];
  /** Each with its task, and whether that task is integrated into the flight's branch (which is then pushed to the pull request). */
  cameBack: { kind: "review" | "check"; task: { id: string; number: number; title: string; status: TaskStatus }; integrated: boolean }[];
}

/** The pull request views of these flights, by flight id (those without one are absent). */
export async function pullRequestViews(db: Executor, flights: Flight[]): Promise<Map<string, PullRequestView>> {
  const opened = flights.filter((f) => f.pullRequestNumber !== null && f.pullRequestUrl);
  const views = new Map<string, PullRequestView>();
  if (!opened.length) return views;
  const feedback = await db
    .select({
      flightId: pullRequestFeedback.flightId,
      kind: pullRequestFeedback.kind,
      id: tasks.id,
      number: tasks.number,
      title: tasks.title,
      status: tasks.status,
      integratedAt: flightTasks.integratedAt,
    })
    .from(pullRequestFeedback)
    .innerJoin(tasks, eq(tasks.id, pullRequestFeedback.taskId))
    .leftJoin(flightTasks, eq(flightTasks.taskId, pullRequestFeedback.taskId))
    .where(
      inArray(
        pullRequestFeedback.flightId,
        opened.map((f) => f.id),
      ),
    )
    .orderBy(asc(pullRequestFeedback.id));
  const drafts = opened.filter((f) => f.draftPullRequest);
  const readied = drafts.length
    ? await db
        .select({ taskId: events.taskId })
        .from(events)
        .where(
          and(
            eq(events.kind, "FlightPullRequestReady"),
            inArray(
              events.taskId,
              drafts.map((f) => f.goalTaskId),
            ),
          ),
        )
    : [];
  for (const flight of opened) {
    views.set(flight.id, {
      number: flight.pullRequestNumber!,
      url: flight.pullRequestUrl!,
      draft: flight.draftPullRequest && !readied.some((r) => r.taskId === flight.goalTaskId),
      checkedAt: flight.pullRequestCheckedAt?.toISOString() ?? null,
      checks: (flight.pullRequestChecks ?? []).map((check) => ({ ...check, state: checkState(check) })),
      cameBack: feedback
        .filter((f) => f.flightId === flight.id)
        .map(({ kind, id, number, title, status, integratedAt }) => ({ kind, task: { id, number, title, status }, integrated: integratedAt !== null })),
    });
  }
  return views;
}

// A flight as people and clients read it (GET /api/flights, the Board's flights, `quorum flight list`):
// where it works, what it plans, how far it got and what it spent.
import { pullRequestViews, type PullRequestView } from "./pull-request-view";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { flights, flightTasks, principals, tasks } from "../../db/schema";
import type { Executor } from "../../db/client";
import { budgetLines, type BudgetLine } from "../budgets/lines";
import { type DiagnosisAlert, highFindings } from "../diagnosis/alerts";
import { DEFAULT_FLIGHT_ALLOWANCE } from "../budgets/flight-budget";
import { fail } from "../errors";
import { isUuid } from "../ids";
import { dependenciesOf } from "../tasks/dependencies";
import type { TaskStatus } from "../../db/schema";
import type { Flight } from "./launch";
import type { Principal } from "../principal";
import { type SetupState, setupStatesOf } from "./setup";
import { FINISHED_STAGES, type FlightStage, STAGE_WORDS, stageOf } from "./stage";

export interface FlightTaskView {
  id: string;
  number: number;
  title: string;
  status: TaskStatus;
  ownerName: string | null;
  /** The numbers of the tasks of the plan it waits for. */
  dependsOn: number[];
  integrated: boolean;
  /** Its share of the flight's allowance (domain/budgets/task-shares.ts), which its runs draw on; null before the plan is recorded. */
  budget: BudgetLine | null;
}

export interface FlightView {
  id: string;
  number: number;
  goal: string;
  /** The suite's verdict: green or red once the team's work is over. */
  status: Flight["status"];
  /** Where the flight is in its life (domain/flights/stage.ts), and that in words. */
  stage: FlightStage;
  stageWords: string;
  /** Merged or closed: nothing more happens to it (the Board folds it away). */
  finished: boolean;
  /** `scripted`, a model's name, or the human's choice to run it scripted. */
  mode: string;
  /** The user's repository; null for a flight that worked in place (before flights had their own clone). */
  source: string | null;
  /** Its https URL when the flight was started on a remote repository (`source` is then the hub's clone of it). */
  remote: string | null;
  /** The pull request the hub opened on the remote's forge once the goal was accepted, its checks and what came back from it. */
  pullRequest: PullRequestView | null;
  /** What its forge refuses now (opening, marking ready or reading its pull request), in the forge's words; the hub keeps trying. */
  forgeRefusal: { reason: string; since: string } | null;
  /** The forge issue it was proposed from (Issue intake): its pull request closes it when merged. */
  issueNumber: number | null;
  /** The branch the team integrates into, in the user's repository too. */
  branch: string;
  baseCommit: string | null;
  /** The branch checked out when it started, where Merge brings the work; null: a detached HEAD. */
  baseBranch: string | null;
  /** How it ended: merged into `into` (which then stood at `commit`), or closed without merging. */
  merged: { at: string; commit: string; into: string } | null;
  closed: { at: string; reason: string } | null;
  testCommand: string | null;
  /** Its setup (the command, where it came from, how it is going or went); null when the repository needs none. */
  setup: SetupState | null;
  /** How the human takes the work once the goal is reviewed; null for a flight that worked in place. */
  mergeCommand: string | null;
  goalTask: { id: string; number: number; title: string; status: TaskStatus };
  /** The plan: the orchestrator's tasks, in order. */
  tasks: FlightTaskView[];
  /** The flight's allowance, what its runs and its tasks' runs spent, and what its tasks were promised, in tokens. */
  budget: BudgetLine | null;
  /** The MAST monitor's high findings on it (failures that got past a gate), oldest first, as the reader may see them. */
  alerts: DiagnosisAlert[];
  createdByName: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The command that brings a flight's branch into the user's checkout (they run it; the team never does). */
export function mergeCommandOf(source: string, branch: string): string {
  return `git -C ${source} merge ${branch}`;
}

/** Flights as listed: the newest first, at most this many. */
export const FLIGHTS_LISTED = 50;

async function viewsOf(db: Executor, rows: { flight: Flight; goal: typeof tasks.$inferSelect; creator: string | null }[], viewer?: Principal): Promise<FlightView[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.flight.id);
  const owner = sql<string | null>`(select name from principals where id = ${tasks.ownerId})`;
  const members = await db
    .select({ flightId: flightTasks.flightId, task: tasks, ownerName: owner, integratedAt: flightTasks.integratedAt, budgetId: flightTasks.budgetId })
    .from(flightTasks)
    .innerJoin(tasks, eq(tasks.id, flightTasks.taskId))
    .where(inArray(flightTasks.flightId, ids))
    .orderBy(tasks.number);
  const dependencies = await dependenciesOf(
    db,
    members.map((m) => m.task.id),
  );
  const budgetIds = [...rows.map((r) => r.flight.budgetId), ...members.map((m) => m.budgetId)].filter((id): id is string => id !== null);
  const lines = await budgetLines(db, budgetIds);
  const lineOf = (id: string | null) => (id ? (lines.get(id) ?? null) : null);
  const alerts = await highFindings(db, ids, viewer);
  const pullRequests = await pullRequestViews(
    db,
    rows.map((r) => r.flight),
  );
  const setups = await setupStatesOf(
    db,
    rows.map((r) => r.flight),
  );
  return rows.map(({ flight, goal, creator }) => {
    const stage = stageOf(flight, goal.status);
    return {
      id: flight.id,
      number: flight.number,
      goal: flight.goal,
      status: flight.status,
      stage,
      stageWords: STAGE_WORDS[stage],
      finished: FINISHED_STAGES.includes(stage),
      mode: flight.mode,
      source: flight.source,
      remote: flight.remote,
      pullRequest: pullRequests.get(flight.id) ?? null,
      issueNumber: flight.issueNumber,
      forgeRefusal: flight.forgeRefusal ? { reason: flight.forgeRefusal, since: (flight.forgeRefusedAt ?? flight.updatedAt).toISOString() } : null,
      branch: flight.branch ?? "main",
      baseCommit: flight.baseCommit,
      baseBranch: flight.baseBranch,
      merged: flight.mergedAt && flight.mergedCommit ? { at: flight.mergedAt.toISOString(), commit: flight.mergedCommit, into: flight.baseBranch ?? "" } : null,
      closed: flight.closedAt ? { at: flight.closedAt.toISOString(), reason: flight.closedReason ?? "" } : null,
      testCommand: flight.testCommand,
      setup: setups.get(flight.id) ?? null,
      // A remote flight's branch is merged on its forge: the hub's clone is no place to merge it.
      mergeCommand: flight.source && !flight.remote ? mergeCommandOf(flight.source, flight.branch ?? "main") : null,
      goalTask: { id: goal.id, number: goal.number, title: goal.title, status: goal.status },
      tasks: members
        .filter((m) => m.flightId === flight.id)
        .map((m) => ({
          id: m.task.id,
          number: m.task.number,
          title: m.task.title,
          status: m.task.status,
          ownerName: m.ownerName,
          dependsOn: (dependencies.get(m.task.id) ?? []).map((d) => d.number),
          integrated: m.integratedAt !== null,
          budget: lineOf(m.budgetId),
        })),
      budget: lineOf(flight.budgetId),
      alerts: alerts.get(flight.id) ?? [],
      createdByName: creator,
      createdAt: flight.createdAt.toISOString(),
      updatedAt: flight.updatedAt.toISOString(),
    };
  });
}

function selectFlights(db: Executor) {
  return db
    .select({ flight: flights, goal: tasks, creator: principals.name })
    .from(flights)
    .innerJoin(tasks, eq(tasks.id, flights.goalTaskId))
    .leftJoin(principals, eq(principals.id, flights.createdBy))
    .$dynamic();
}

export interface FlightList {
  items: FlightView[];
  /** The allowance a flight gets when its human names none (the New flight dialog shows it). */
  defaultAllowance: number;
}

/** `viewer`: the reader, whose findings are read under the visibility rule (absent: the operator's CLI, every one). */
export async function listFlights(db: Executor, viewer?: Principal): Promise<FlightList> {
  const rows = await selectFlights(db).orderBy(desc(flights.number)).limit(FLIGHTS_LISTED);
  return { items: await viewsOf(db, rows, viewer), defaultAllowance: DEFAULT_FLIGHT_ALLOWANCE };
}

/** One flight, by its id or its number ("3" or "#3"). */
export async function readFlight(db: Executor, idOrNumber: string, viewer?: Principal): Promise<FlightView> {
  const number = /^#?\d{1,9}$/.test(idOrNumber) ? Number(idOrNumber.replace("#", "")) : null;
  if (number === null && !isUuid(idOrNumber)) throw fail.notFound("flight", `no flight '${idOrNumber.slice(0, 64)}'`);
  const [row] = await selectFlights(db).where(number !== null ? eq(flights.number, number) : and(eq(flights.id, idOrNumber)));
  if (!row) throw fail.notFound("flight", `no flight '${idOrNumber.slice(0, 64)}'`);
  const [view] = await viewsOf(db, [row], viewer);
  return view;
}

// Planning a flight: the orchestrator takes a flight out of `planning` with its goal task, files the
// flight's tasks, and records the plan (a plan with no tasks turns the flight red) with each task's share of
// the flight's allowance (domain/budgets/task-shares.ts).
import { asc, eq } from "drizzle-orm";
import { flights, flightTasks } from "../../db/schema";
import type { Db, Tx } from "../../db/client";
import type { Clock } from "../clock";
import { shareOutFlight, type TaskShare } from "../budgets/task-shares";
import { appendEvent } from "../journal/append";
import type { Principal } from "../principal";
import { takeTask } from "../tasks/claim";
import { insertTask, type CreateTaskInput } from "../tasks/create";
import { lockTask, type TaskView } from "../tasks/view";
import type { Flight } from "./launch";

/**
 * Moves the oldest planning flight to `working` and claims its goal task for the orchestrator, in one
 * transaction: a second orchestrator skips the locked row and finds nothing to plan.
 */
export async function takeFlightToPlan(db: Db, orchestrator: Principal, clock: Clock): Promise<{ flight: Flight; goal: TaskView } | null> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [next] = await tx.select().from(flights).where(eq(flights.status, "planning")).orderBy(asc(flights.createdAt)).limit(1).for("update", { skipLocked: true });
    if (!next) return null;
    const goalRow = await lockTask(tx, next.goalTaskId);
    if (goalRow.status !== "ready") {
      // Someone took or ended the goal meanwhile (a human cancelled it): this flight cannot be planned.
      await writePlan(tx, orchestrator, next, { runId: null, tasks: [], result: `the goal task is ${goalRow.status}` }, now);
      return null;
    }
    const [flight] = await tx.update(flights).set({ status: "working", updatedAt: now }).where(eq(flights.id, next.id)).returning();
    const goal = await takeTask(tx, orchestrator, flight.goalTaskId, now);
    await appendEvent(tx, { kind: "FlightPlanningStarted", actor: orchestrator.id, taskId: goal.id, t: now, data: { flightId: flight.id, status: flight.status } });
    return { flight, goal };
  });
}

/** Files one task of the flight under its goal; the task and its membership commit together. */
export async function addFlightTask(db: Db, orchestrator: Principal, flight: Flight, input: CreateTaskInput, clock: Clock): Promise<TaskView> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const task = await insertTask(tx, orchestrator, { ...input, parentId: flight.goalTaskId }, now);
    await tx.insert(flightTasks).values({ taskId: task.id, flightId: flight.id });
    await appendEvent(tx, { kind: "FlightTaskAdded", actor: orchestrator.id, taskId: task.id, t: now, data: { flightId: flight.id, number: task.number } });
    return task;
  });
}

export interface FlightPlan {
  /** The planning run; null when planning never started. */
  runId: string | null;
  /** `weight`: how big the orchestrator judged it next to the others (create_task's budget_weight). */
  tasks: { id: string; number: number; title: string; weight?: number }[];
  /** How the planning run ended. */
  result: string;
}

/** Records the plan; with no tasks the flight cannot proceed and turns red in the same transaction. */
export async function recordFlightPlan(db: Db, orchestrator: Principal, flight: Flight, plan: FlightPlan, clock: Clock): Promise<Flight["status"]> {
  const now = clock.now();
  return db.transaction((tx) => writePlan(tx, orchestrator, flight, plan, now));
}

async function writePlan(tx: Tx, orchestrator: Principal, flight: Flight, plan: FlightPlan, now: Date): Promise<Flight["status"]> {
  const status = plan.tasks.length === 0 ? "red" : "working";
  await tx.update(flights).set({ status, plannedAt: now, updatedAt: now }).where(eq(flights.id, flight.id));
  const funded = await fundTasks(tx, orchestrator, flight, plan.tasks, now);
  await appendEvent(tx, {
    kind: "FlightPlanned",
    actor: orchestrator.id,
    runId: plan.runId,
    taskId: flight.goalTaskId,
    t: now,
    data: {
      flightId: flight.id,
      tasks: plan.tasks.map(({ id, number, title }) => ({ id, number, title })),
      result: plan.result,
      status,
      ...(funded && { shares: funded.shares, reserve: funded.reserve }),
    },
  });
  return status;
}

/** Each planned task's share of the flight's allowance (none for a flight launched without a budget). */
export async function fundTasks(
  tx: Tx,
  orchestrator: Principal,
  flight: Flight,
  planned: FlightPlan["tasks"],
  now: Date,
): Promise<{ reserve: number; shares: TaskShare[] } | null> {
  if (!flight.budgetId || planned.length === 0) return null;
  const funded = await shareOutFlight(
    tx,
    flight.budgetId,
    planned.map((t) => ({ taskId: t.id, number: t.number, weight: t.weight })),
    orchestrator.id,
    now,
  );
  for (const share of funded.shares) await tx.update(flightTasks).set({ budgetId: share.budgetId }).where(eq(flightTasks.taskId, share.taskId));
  return funded;
}

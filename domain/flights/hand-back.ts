// When a team run ends without finishing its task (the model failed for good, or the run ended
// inconclusive, out of turns, halted, stopped), the task is released at once, never left to its lease:
// a subtask goes back to `ready` with the reason on record and a cool-down before the team takes it
// again; a goal goes back to the human who posted it, who sees it in "waiting for you" and decides:
// retry, run scripted, or cancel with an ADR. The humans are told in the Room once per streak of
// failures of one model (until it finishes a run again), not once per failure.
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { flights, flightTasks, principals, tasks } from "../../db/schema";
import type { Db, Tx } from "../../db/client";
import type { Clock } from "../clock";
import { fail } from "../errors";
import { isUuid } from "../ids";
import { appendEvent } from "../journal/append";
import type { TaskReleasedData } from "../journal/payloads";
import { getSystemPrincipal } from "../principals/create-principal";
import { toPrincipal, type Principal } from "../principal";
import { closeFocusWindow } from "../rooms/focus";
import { postMessage } from "../rooms/post-message";
import { takeTask } from "../tasks/claim";
import { lockTask } from "../tasks/view";
import { FLIGHT_ROOM, type Flight } from "./launch";
import { readTeamStatus } from "./team-status";
import { quoted } from "../quoted-text";
import { backToReady } from "../tasks/back-to-ready";

/** A released subtask is not taken by the team again before this (the model may need a moment, or a human); db/functions/quorum_flight_cooling.sql reads it back from TaskReleased. */
export const RELEASE_COOL_DOWN_MS = 60_000;

/**
 * A flight's subtask is tried this many times (runs that end without finishing it); the last release hands it
 * to the orchestrator to re-plan — once per flight; a second such task sends the goal back to its human.
 */
export const SUBTASK_TRIES = 3;

export interface RunEnding {
  runId: string | null;
  /** `failed` when the model call failed for good, else the run's status. */
  outcome: string;
  reason: string;
  /** The client's name: `scripted` or `<wire>:<model>`. */
  model: string;
  /**
   * What a person can do about it, worded by the model client (agents/model/ alone knows what configures a
   * model). Told in the Room, not journalled: TaskReleased records the ending itself.
   */
  advice: string;
}

export interface Release {
  taskId: string;
  number: number;
  /** Whether this release opened a streak of failures: then the Room was told. */
  told: boolean;
  /** Failures of this model since it last finished a run. */
  streak: number;
}

/** Serialises the "tell once" decision per model across workers. */
async function lockModel(tx: Tx, model: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`quorum:model-notice:${model}`}, 0))`);
}

/** Failures of `model` since a run on it last finished done, and whether one of them told the Room already. */
export async function streakOf(tx: Tx, model: string): Promise<{ count: number; told: boolean }> {
  const [row] = await tx.execute<{ count: number; told: boolean }>(sql`
    with last_done as (
      select coalesce(max(af.id), 0) as id from events af
      join events rs on rs.run_id = af.run_id and rs.kind = 'RunStarted'
      where af.kind = 'AgentFinished' and af.data->'result'->>'status' = 'done' and rs.data->>'model' = ${model})
    select count(*)::int as count, coalesce(bool_or((r.data->>'told')::boolean), false) as told
    from events r, last_done
    where r.kind = 'TaskReleased' and r.data->>'model' = ${model} and r.id > last_done.id
      and r.data->>'outcome' not in (${GAVE_UP}, ${SETUP_FAILED})`);
  return { count: Number(row?.count ?? 0), told: Boolean(row?.told) };
}

/** The ending as TaskReleased records it. */
function recorded({ runId, outcome, reason, model }: RunEnding): Pick<TaskReleasedData, "runId" | "outcome" | "reason" | "model"> {
  return { runId, outcome, reason, model };
}

async function record(tx: Tx, actor: Principal, taskId: string, data: Omit<TaskReleasedData, "told" | "streak">, now: Date): Promise<{ told: boolean; streak: number }> {
  if (data.outcome === SETUP_FAILED) {
    // Not the model's failure: no streak of its, and each one is said (the human may be retrying it).
    await appendEvent(tx, { kind: "TaskReleased", actor: actor.id, taskId, t: now, data: { ...data, told: true, streak: 0 } });
    return { told: true, streak: 0 };
  }
  await lockModel(tx, data.model);
  const before = await streakOf(tx, data.model);
  const told = !before.told;
  const streak = before.count + 1;
  await appendEvent(tx, { kind: "TaskReleased", actor: actor.id, taskId, t: now, data: { ...data, told, streak } });
  return { told, streak };
}

/** A subtask the agent held goes back to `ready` (a run-less task must never wait for its lease). */
export async function releaseSubtask(db: Db, agent: Principal, taskId: string, ending: RunEnding, clock: Clock, coolDownMs = RELEASE_COOL_DOWN_MS): Promise<Release | null> {
  const now = clock.now();
  const released = await db.transaction(async (tx) => {
    const task = await lockTask(tx, taskId);
    const [membership] = await tx.select({ flightId: flightTasks.flightId }).from(flightTasks).where(eq(flightTasks.taskId, taskId));
    if (!membership) throw fail.invalid("task", `task #${task.number} belongs to no flight`);
    // Only what this agent still holds is released; a task that moved on meanwhile is left as it is.
    const held = task.status === "in_progress" && task.ownerId === agent.id;
    const inReview = task.status === "review";
    if (!held && !inReview) return null;
    if (held) {
      await backToReady(tx, taskId, now);
      await closeFocusWindow(tx, agent.id, now);
    }
    const tries = held ? (await releasesOf(tx, taskId)) + 1 : 0;
    const replan = held && tries >= SUBTASK_TRIES;
    const coolDownUntil = replan ? null : new Date(now.getTime() + coolDownMs).toISOString();
    const said = await record(
      tx,
      agent,
      taskId,
      { number: task.number, ...recorded(ending), coolDownUntil, handedTo: null, flightId: membership.flightId, ...(replan ? { replan: true } : {}) },
      now,
    );
    return { taskId, number: task.number, ...said, approverId: task.approverId, flightId: membership.flightId };
  });
  if (!released) return null;
  // A review is not handed anywhere (the task stays in review): it is tried again after the cool-down.
  if (released.told) {
    const human = await humanOfFlight(db, released.flightId);
    await tellHumans(db, human, ending, `task #${released.number} went back to ready and the team tries it again after a cool-down`, taskId, clock);
  }
  return { taskId: released.taskId, number: released.number, told: released.told, streak: released.streak };
}

/** How a coder's giving up is recorded as a release (it is not its model failing: no streak counts it). */
export const GAVE_UP = "rework_abandoned";
/** A hand-back's outcome when the flight's setup failed before anyone worked. */
export const SETUP_FAILED = "setup_failed";

/**
 * A coder gives a subtask up after `rejections` rounds of review: nobody is left holding it until its lease
 * runs out. It goes back to `ready`, handed to the orchestrator to re-plan as a task out of tries is (a flight
 * re-planned already, or one that thinks by script, then goes to its human, in "waiting for you").
 */
export async function giveUpSubtask(db: Db, coder: Principal, taskId: string, gaveUp: { rejections: number; lastReview: string; model: string }, clock: Clock): Promise<boolean> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const task = await lockTask(tx, taskId);
    const [membership] = await tx.select({ flightId: flightTasks.flightId }).from(flightTasks).where(eq(flightTasks.taskId, taskId));
    if (!membership || task.status !== "in_progress" || task.ownerId !== coder.id) return false;
    await backToReady(tx, taskId, now);
    await closeFocusWindow(tx, coder.id, now);
    await appendEvent(tx, { kind: "ReworkAbandoned", actor: coder.id, taskId, t: now, data: { rejections: gaveUp.rejections } });
    const reason = `rejected ${gaveUp.rejections} times in review; the last review said: ${gaveUp.lastReview}`.slice(0, 2000);
    await appendEvent(tx, {
      kind: "TaskReleased",
      actor: coder.id,
      taskId,
      t: now,
      data: {
        number: task.number,
        runId: null,
        outcome: GAVE_UP,
        reason,
        model: gaveUp.model,
        coolDownUntil: null,
        replan: true,
        handedTo: null,
        flightId: membership.flightId,
        told: false,
        streak: 0,
      },
    });
    return true;
  });
}

/**
 * A flight's goal goes back to the human who posted it: the goal to `ready`, unowned, and the flight
 * `red` until they retry it (live or scripted) or cancel the goal with an ADR. A tester's round that
 * never ran is put back so a retry tests it.
 */
export async function handGoalBack(db: Db, agent: Principal, flight: Flight, ending: RunEnding, clock: Clock, untested: string[] = []): Promise<Release | null> {
  const now = clock.now();
  const handed = await db.transaction(async (tx) => {
    const goal = await lockTask(tx, flight.goalTaskId);
    if (goal.status !== "in_progress" || goal.ownerId !== agent.id) return null;
    await backToReady(tx, goal.id, now);
    await tx.update(flights).set({ status: "red", updatedAt: now }).where(eq(flights.id, flight.id));
    if (untested.length) {
      for (const taskId of untested) {
        await tx
          .update(flightTasks)
          .set({ testedAt: null })
          .where(and(eq(flightTasks.flightId, flight.id), eq(flightTasks.taskId, taskId)));
      }
    }
    await closeFocusWindow(tx, agent.id, now);
    const said = await record(tx, agent, goal.id, { number: goal.number, ...recorded(ending), coolDownUntil: null, handedTo: goal.approverId, flightId: flight.id }, now);
    return { taskId: goal.id, number: goal.number, ...said };
  });
  if (!handed) return null;
  if (handed.told) {
    const human = await humanOfFlight(db, flight.id);
    await tellHumans(
      db,
      human,
      ending,
      `goal #${handed.number} is back with you under "waiting for you": retry it, run it scripted, or cancel it with an ADR`,
      handed.taskId,
      clock,
    );
  }
  return handed;
}

/** The human who posted the flight (its goal's approver). */
export async function humanOfFlight(db: Db, flightId: string): Promise<{ name: string } | null> {
  const [row] = await db
    .select({ name: principals.name, kind: principals.kind })
    .from(flights)
    .innerJoin(tasks, eq(tasks.id, flights.goalTaskId))
    .innerJoin(principals, eq(principals.id, tasks.approverId))
    .where(eq(flights.id, flightId));
  return row?.kind === "human" ? { name: row.name } : null;
}

/** One message from Quorum to the humans: the model, the error, what to do. */
async function tellHumans(db: Db, human: { name: string } | null, ending: RunEnding, what: string, taskId: string, clock: Clock): Promise<void> {
  const system = await getSystemPrincipal(db);
  // The reason carries the vendor's words (an error body): quoted, so they never read as Quorum's.
  const cause = ending.outcome === "failed" ? `failed: ${quoted(ending.reason, 400)}` : `ended ${ending.outcome.replaceAll("_", " ")}: ${quoted(ending.reason, 400)}`;
  // A failed setup is the repository's or the network's doing, never the model's: it is not blamed on one.
  const body =
    ending.outcome === SETUP_FAILED
      ? `The flight's setup failed: ${quoted(ending.reason, 400)}\nSo ${what}. What to do: ${ending.advice}`
      : `The model ${ending.model} ${cause}\nSo ${what}. What to do: ${ending.advice}. Further failures of this model are counted on the Agents page, not repeated here.`;
  await postMessage(db, system, FLIGHT_ROOM, { body, performative: "ERROR", ...(human ? { to: human.name } : {}), taskId }, clock);
}

/** A flight's mode once its human chose to run it scripted: the team's roles use their scripts for it whatever model is configured. */
export const CHOSEN_SCRIPTED = "scripted (chosen by a human)";

export const retryFlightInput = z.strictObject({ mode: z.enum(["live", "scripted"]).default("live") });
export type RetryFlightInput = z.infer<typeof retryFlightInput>;

/**
 * The human's answer to a handed-back goal: try again, live (the team's model) or scripted. A flight
 * without tasks is planned again; one with tasks goes back to work, its goal held by the orchestrator.
 */
export async function retryFlight(db: Db, human: Principal, flightId: string, input: RetryFlightInput, clock: Clock): Promise<Flight> {
  if (human.kind !== "human") throw fail.forbidden("flight", "only the human who posted a goal decides what happens to it");
  const now = clock.now();
  const team = await readTeamStatus(db);
  const [orchestratorRow] = await db
    .select()
    .from(principals)
    .where(and(eq(principals.name, "orchestrator"), eq(principals.kind, "agent")));
  const orchestrator = orchestratorRow ? toPrincipal(orchestratorRow) : null;
  return db.transaction(async (tx) => {
    const [flight] = isUuid(flightId) ? await tx.select().from(flights).where(eq(flights.id, flightId)).for("update") : [];
    if (!flight) throw fail.notFound("flight", `no flight ${flightId}`);
    const goal = await lockTask(tx, flight.goalTaskId);
    if (goal.approverId !== human.id) throw fail.forbidden("flight", `only the human who posted goal #${goal.number} may retry it`);
    if (flight.status !== "red" || goal.status !== "ready") {
      throw fail.conflict("flight", "not_handed_back", `goal #${goal.number} is ${goal.status} and its flight ${flight.status}: only a goal handed back to you can be retried`);
    }
    const [hasTasks] = await tx.select({ id: flightTasks.taskId }).from(flightTasks).where(eq(flightTasks.flightId, flight.id)).limit(1);
    // Live means the team's model as its worker announced it; with none configured the flight stays scripted.
    const nextMode = input.mode === "scripted" ? CHOSEN_SCRIPTED : (team.mode ?? flight.mode);
    let status: Flight["status"] = "planning";
    if (hasTasks) {
      if (!orchestrator) throw fail.conflict("flight", "no_team", "the built-in team has no orchestrator yet: start a team worker first");
      await takeTask(tx, orchestrator, goal.id, now);
      status = "working";
    }
    const [updated] = await tx.update(flights).set({ status, mode: nextMode, updatedAt: now }).where(eq(flights.id, flight.id)).returning();
    await appendEvent(tx, { kind: "FlightRetried", actor: human.id, taskId: goal.id, t: now, data: { flightId: flight.id, mode: nextMode } });
    return updated;
  });
}

/** How many times a task was released from a run that held it (reviews that were released do not count). */
async function releasesOf(tx: Tx, taskId: string): Promise<number> {
  const [row] = await tx.execute<{ n: number }>(sql`
    select count(*)::int as n from events e join tasks t on t.id = e.task_id
    where e.kind = 'TaskReleased' and e.task_id = ${taskId}::uuid and e.actor is distinct from t.approver_id`);
  return row?.n ?? 0;
}

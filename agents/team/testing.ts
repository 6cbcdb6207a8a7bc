// Test helpers for flying the built-in team: a scratch flight, an in-process worker, and the flight's own journal.
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { getConnection, getDb } from "../../db/client";
import { contextOf } from "../../server/context";
import { events, flights, flightTasks, tasks } from "../../db/schema";
import { systemClock } from "../../server/clock";
import { loadEventsOfKinds, loadTaskEvents } from "../../server/journal/views/load";
import type { JournalRecord } from "../../server/journal/views/run-events";
import { makeHuman } from "../../test/helpers";
import { createScratchRepo } from "../demo/scratch-repo";
import { DEMO_GOAL } from "../demo/scratch-repo";
import { launchFlight } from "../../server/flights/launch";
import { ensureTeam } from "./team";
import { runTeamWorker, type WorkerOptions } from "./worker";

export function suitePasses(repo: string): boolean {
  try {
    execFileSync("node", ["--test"], { cwd: repo, stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Polls `probe` until it returns something truthy; fails with `what` (and the last state) after `ms`. */
export async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, ms = 90_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A scratch repository whose suite is red, a human, the team, and a flight launched on the demo goal. */
export async function launchScratchFlight() {
  const db = getDb();
  const repo = createScratchRepo(mkdtempSync(join(tmpdir(), "quorum-scenario-")));
  const human = await makeHuman();
  const team = await ensureTeam(db, systemClock);
  const { flight, goalTask } = await launchFlight(db, human, { goal: DEMO_GOAL, repo, mode: "scripted" }, systemClock);
  return { db, repo, human, team, flight, goalTask };
}

/** Runs the team in this process (scripted unless `model` is given) until `stop()`. */
export function startWorker(options: Partial<WorkerOptions> = {}) {
  const controller = new AbortController();
  const done = runTeamWorker(contextOf(getConnection()), {
    roles: ["orchestrator", "coder", "reviewer", "tester"],
    model: null,
    log: () => {},
    ...options,
    signal: controller.signal,
  });
  return {
    async stop() {
      controller.abort();
      await done;
    },
  };
}

/** The flight's tasks: its goal first, then the tasks the orchestrator created for it. */
export async function flightTaskIds(flightId: string): Promise<string[]> {
  const db = getDb();
  const [flight] = await db.select().from(flights).where(eq(flights.id, flightId));
  const children = await db.select({ taskId: flightTasks.taskId }).from(flightTasks).where(eq(flightTasks.flightId, flightId));
  return [flight.goalTaskId, ...children.map((c) => c.taskId)];
}

/**
 * The flight's own journal: the events of its tasks and of every run that worked on them, plus the
 * digest flushes that delivered the flight's messages (those carry no task), in journal order.
 */
export async function flightJournal(flightId: string): Promise<JournalRecord[]> {
  const db = getDb();
  const byId = new Map<number, JournalRecord>();
  for (const taskId of await flightTaskIds(flightId)) for (const e of await loadTaskEvents(db, taskId)) byId.set(e.id, e);
  const sent = new Set([...byId.values()].filter((e) => e.kind === "MessageSent").map((e) => (e.data as { messageId: number }).messageId));
  for (const e of await loadEventsOfKinds(db, ["MessageDelivered"], sql`${events.data}->>'via' = 'digest'`)) {
    if ((e.data as { messageIds?: number[] }).messageIds?.some((id) => sent.has(id))) byId.set(e.id, e);
  }
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/**
 * A flight has settled when it is green or red, every integrated task was tested, and a green goal
 * has been handed to its human (so no role is still mid-step when the worker stops).
 */
export async function settledStatus(flightId: string): Promise<string | null> {
  const db = getDb();
  const [flight] = await db.select().from(flights).where(eq(flights.id, flightId));
  if (flight.status !== "green" && flight.status !== "red") return null;
  const rows = await db.select().from(flightTasks).where(eq(flightTasks.flightId, flightId));
  if (rows.some((r) => r.integratedAt && !r.testedAt)) return null;
  const [goal] = await db.select({ status: tasks.status }).from(tasks).where(eq(tasks.id, flight.goalTaskId));
  if (flight.status === "green" && goal.status !== "review") return null;
  return flight.status;
}

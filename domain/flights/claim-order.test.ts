// A coder's claim within its flight and a plain claim-next search in one order (DESIGN §6, "Claim-next"):
// the task offered to the claimer first, then the lowest-numbered task it may claim. Both call
// db/functions/quorum_claim_next_tasks.sql; this fails if either ever orders differently, or if the flight's
// claim stops passing over its cooling tasks.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { flights, flightTasks, tasks } from "../../db/schema";
import { getDb } from "../../db/client";
import { manualClock } from "../clock";
import type { Principal } from "../principal";
import { claimTask } from "../tasks/claim";
import { claimNextTask } from "../tasks/claim-next";
import { claimTogether } from "../tasks/claim-together";
import { rawClientOf } from "../raw-sql";
import { makeAgent, makeHuman } from "../../test/helpers";
import { makeReadyTask } from "../../test/fixtures/board";
import { RELEASE_COOL_DOWN_MS, releaseSubtask } from "./hand-back";
import { claimNextFlightTask } from "./work";

const ending = { runId: null, outcome: "failed", reason: "the model timed out", model: "scripted", advice: "try again" };

/**
 * One working flight's board, made the same way each time: subtasks of different ages (numbers), one the coder
 * approves, one offered to someone else, one waiting on another, one released a moment ago (cooling down), and
 * the newest offered to the coder by the lease sweeper.
 */
async function flightBoard(lead: Principal, orchestrator: Principal, coder: Principal, someone: Principal, clock: ReturnType<typeof manualClock>) {
  const db = getDb();
  const goal = await makeReadyTask(lead, { title: "goal" }, clock);
  await claimTask(db, orchestrator, goal.id, clock);
  const [flight] = await db
    .insert(flights)
    .values({ goal: goal.title, repo: "/nowhere", goalTaskId: goal.id, mode: "scripted", createdBy: lead.id, status: "working", plannedAt: clock.now() })
    .returning();
  const sub = async (title: string, extra: { approverId?: string; dependsOn?: string[] } = {}) => {
    clock.advance(1_000);
    const task = await makeReadyTask(lead, { title, parentId: goal.id, ...extra }, clock);
    await db.insert(flightTasks).values({ taskId: task.id, flightId: flight.id });
    return task;
  };
  await sub("approved by the coder", { approverId: coder.id });
  const oldest = await sub("oldest");
  const released = await sub("released");
  await sub("offered to someone else");
  await sub("waiting on the oldest", { dependsOn: [oldest.id] });
  await sub("newer");
  const offered = await sub("offered to the coder");
  await db.update(tasks).set({ offeredTo: someone.id }).where(eq(tasks.title, "offered to someone else"));
  await db.update(tasks).set({ offeredTo: coder.id }).where(eq(tasks.id, offered.id));
  // A run on it failed: back to ready, not taken by the team again for the cool-down.
  await claimTask(db, coder, released.id, clock);
  expect(await releaseSubtask(db, coder, released.id, ending, clock)).toMatchObject({ taskId: released.id });
  return flight;
}

/** Claims until the claim finds nothing; the titles in the order taken. */
async function drain(claim: () => Promise<{ title: string } | null>): Promise<string[]> {
  const order: string[] = [];
  for (let task = await claim(); task; task = await claim()) order.push(task.title);
  return order;
}

describe("the order a claimer's next task is found in", () => {
  it("is one order for claim-next and a coder's claim in its flight, which also passes over its cooling tasks", async () => {
    const db = getDb();
    const clock = manualClock();
    const lead = await makeHuman();
    const [orchestrator, coder, someone] = await Promise.all([makeAgent(), makeAgent(), makeAgent()]);
    const promised = ["offered to the coder", "oldest", "released", "offered to someone else", "newer"];

    // Plain claim-next, unscoped, over the first board: it knows nothing of cooling down.
    await flightBoard(lead, orchestrator, coder, someone, clock);
    expect(await drain(() => claimNextTask(db, coder, clock))).toEqual(promised);

    // The same board again, claimed by the coder within its flight: the same order, the cooling task passed over.
    const flight = await flightBoard(lead, orchestrator, coder, someone, clock);
    expect(await drain(async () => (await claimNextFlightTask(db, coder, clock))?.task ?? null)).toEqual(promised.filter((t) => t !== "released"));
    // Once the cool-down has passed, the flight takes it too.
    clock.advance(RELEASE_COOL_DOWN_MS);
    expect(await claimNextFlightTask(db, coder, clock)).toMatchObject({ task: { title: "released", parentId: flight.goalTaskId } });

    // Claim-next scoped to a third board's goal, and a batch of one: the same order as the flight's, cooling aside.
    const third = await flightBoard(lead, orchestrator, coder, someone, clock);
    expect(await drain(() => claimNextTask(db, coder, clock, { parentId: third.goalTaskId }))).toEqual(promised);
    const fourth = await flightBoard(lead, orchestrator, coder, someone, clock);
    const alone = rawClientOf(db);
    const batchOfOne = async () => (await claimTogether(alone, [{ caller: coder, now: clock.now().toISOString() }], { parentId: fourth.goalTaskId }))[0] ?? null;
    expect(await drain(batchOfOne)).toEqual(promised);
    // Four boards of releases and claims, each a few statements: slow only when the whole suite shares the machine.
  }, 90_000);
});

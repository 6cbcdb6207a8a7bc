// A flight a person can watch: the team's pace falls between each role's visible actions (every tool
// call it makes and every post), not once after a whole turn, so the Room and the Board show each step land.
import { and, asc, inArray, isNotNull } from "drizzle-orm";
import { expect, it } from "vitest";
import { events } from "../../db/schema";
import { launchScratchFlight, settledStatus, startWorker, until } from "../../test/fixtures/team";

const PACE_MS = 250;
const VISIBLE = ["ToolReturned", "MessageSent"];

it("pauses between every tool call and post of each role, and the goal's title names its flight", { timeout: 120_000 }, async () => {
  const { db, team, flight, goalTask } = await launchScratchFlight();
  expect(goalTask.title).toBe(`Goal of flight ${flight.number}: ${flight.goal}`);
  const worker = startWorker({ paceMs: PACE_MS });
  try {
    expect(await until("the goal to wait for review", () => settledStatus(flight.id))).toBe("green");
  } finally {
    await worker.stop();
  }
  const members = [team.orchestrator, team.reviewer, team.tester, ...team.coders].map((m) => m.principal.id);
  const rows = await db
    .select({ actor: events.actor, kind: events.kind, t: events.t, id: events.id })
    .from(events)
    .where(and(inArray(events.kind, VISIBLE), inArray(events.actor, members), isNotNull(events.actor)))
    .orderBy(asc(events.id));
  const byActor = new Map<string, number[]>();
  for (const row of rows) byActor.set(row.actor!, [...(byActor.get(row.actor!) ?? []), row.t.getTime()]);
  const gaps = [...byActor.values()].flatMap((times) => times.slice(1).map((t, i) => t - times[i]));
  expect(gaps.length, "visible actions of the team").toBeGreaterThanOrEqual(8);
  // Each pause starts once the action is committed and the next action's transaction after it ends.
  expect(Math.min(...gaps), "the shortest gap between two actions of one role").toBeGreaterThanOrEqual(PACE_MS - 5);
});

// Every claim writes alike (db/functions/quorum_start_work.sql): a claim by id, a lone claim-next and a batch of
// them journal the same TaskClaimed (only `via` tells them apart), open or move the agent's window the same way,
// and answer with the view a fresh read gives.
import { and, asc, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { events, focusWindows } from "../../db/schema";
import { getDb } from "../../db/client";
import { manualClock } from "../clock";
import { payloadOf } from "../journal/payloads";
import type { Principal } from "../principal";
import { rawClientOf } from "../raw-sql";
import { makeReadyTask, makeTeam } from "../../test/fixtures/board";
import { makeHuman } from "../../test/helpers";
import { claimTask } from "./claim";
import { claimNextTask } from "./claim-next";
import { claimTogether } from "./claim-together";
import { reviewTask } from "./review";
import { submitTask } from "./submit";
import { readTaskView, type TaskView } from "./view";

async function claimJournal(taskId: string) {
  return getDb()
    .select()
    .from(events)
    .where(and(eq(events.taskId, taskId), inArray(events.kind, ["TaskClaimed", "FocusWindowOpened"])))
    .orderBy(asc(events.id));
}

async function openWindows(agentId: string) {
  const rows = await getDb().select().from(focusWindows).where(eq(focusWindows.agentId, agentId));
  return rows.filter((w) => w.closedAt === null).map((w) => w.taskId);
}

/** What every claim journals, read back as a rule would read it. */
async function expectClaimed(view: TaskView | null | undefined, owner: Principal, via: "claim" | "claim-next") {
  expect(view).toEqual(await readTaskView(getDb(), view!.id));
  const [claimed, ...focus] = await claimJournal(view!.id);
  expect(claimed.actor).toBe(owner.id);
  expect(payloadOf(claimed, "TaskClaimed")).toEqual({
    number: view!.number,
    ownerId: owner.id,
    fence: view!.fence,
    leaseExpiresAt: view!.leaseExpiresAt,
    outputCount: view!.outputCount,
    via,
  });
  return focus.map((event) => payloadOf(event, "FocusWindowOpened"));
}

describe("every claim path", () => {
  it("journals the same TaskClaimed and opens, then moves, the agent's one window", async () => {
    const db = getDb();
    const clock = manualClock(new Date());
    const {
      lead,
      workers: [ada, bo, cy],
    } = await makeTeam(3);
    const board = [];
    for (let i = 0; i < 5; i++) board.push(await makeReadyTask(lead, { title: `Task ${i}`, leaseMinutes: i === 0 ? 7 : undefined }, clock));

    const byId = await claimTask(db, ada, board[0].id, clock);
    expect(Date.parse(byId.leaseExpiresAt!)).toBe(clock.now().getTime() + 7 * 60_000);
    expect(await expectClaimed(byId, ada, "claim")).toEqual([{ agentId: ada.id, taskId: board[0].id }]);

    clock.advance(1_000);
    const alone = await claimNextTask(db, ada, clock);
    expect(alone?.id).toBe(board[1].id);
    expect(await expectClaimed(alone, ada, "claim-next")).toEqual([{ agentId: ada.id, taskId: board[1].id, previousTaskId: board[0].id }]);

    clock.advance(1_000);
    const together = await claimTogether(
      rawClientOf(db),
      [ada, bo, cy].map((caller) => ({ caller, now: clock.now().toISOString() })),
    );
    expect(together.map((t) => t?.id)).toEqual([board[2].id, board[3].id, board[4].id]);
    expect(await expectClaimed(together[0], ada, "claim-next")).toEqual([{ agentId: ada.id, taskId: board[2].id, previousTaskId: board[1].id }]);
    expect(await expectClaimed(together[1], bo, "claim-next")).toEqual([{ agentId: bo.id, taskId: board[3].id }]);

    const reclaimed = await makeReadyTask(lead, { title: "Bo's second" }, clock);
    expect(await expectClaimed(await claimTask(db, bo, reclaimed.id, clock), bo, "claim")).toEqual([{ agentId: bo.id, taskId: reclaimed.id, previousTaskId: board[3].id }]);
    expect(await openWindows(ada.id)).toEqual([board[2].id]);
    expect(await openWindows(bo.id)).toEqual([reclaimed.id]);
  });

  it("leaves a human claimer without a window, by id as by claim-next", async () => {
    const db = getDb();
    const clock = manualClock(new Date());
    const lead = await makeHuman();
    const human = await makeHuman();
    const first = await makeReadyTask(lead, {}, clock);
    const second = await makeReadyTask(lead, {}, clock);

    expect(await expectClaimed(await claimTask(db, human, first.id, clock), human, "claim")).toEqual([]);
    expect(await expectClaimed(await claimNextTask(db, human, clock), human, "claim-next")).toEqual([]);
    expect((await readTaskView(db, second.id)).ownerId).toBe(human.id);
    expect(await openWindows(human.id)).toEqual([]);
  });

  it("moves the window back to a task sent back for rework, as a claim moves it, after TaskReviewed", async () => {
    const db = getDb();
    const clock = manualClock(new Date());
    const {
      lead,
      workers: [ada],
    } = await makeTeam(1);
    const first = await makeReadyTask(lead, { title: "First" }, clock);
    const second = await makeReadyTask(lead, { title: "Second" }, clock);
    const claimed = await claimTask(db, ada, first.id, clock);
    await submitTask(db, ada, first.id, { fence: claimed.fence, summary: "done", evidence: "the suite passes" }, clock);
    await claimTask(db, ada, second.id, clock);

    await reviewTask(db, lead, first.id, { verdict: "reject", reason: "cover blank input too" }, clock);
    const journal = await getDb()
      .select()
      .from(events)
      .where(and(eq(events.taskId, first.id), inArray(events.kind, ["TaskReviewed", "FocusWindowOpened"])))
      .orderBy(asc(events.id));
    expect(journal.map((e) => e.kind)).toEqual(["FocusWindowOpened", "TaskReviewed", "FocusWindowOpened"]);
    expect(payloadOf(journal[2], "FocusWindowOpened")).toEqual({ agentId: ada.id, taskId: first.id, previousTaskId: second.id });
    expect(journal[2].actor).toBe(ada.id);
    expect(await openWindows(ada.id)).toEqual([first.id]);
  });
});

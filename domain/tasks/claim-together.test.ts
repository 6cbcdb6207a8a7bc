// Claims that queue in one process go together, one statement for the lot: each caller gets what it would
// have got alone, and the journal reads as if the claims had come one after another.
import { and, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { events, focusWindows, tasks } from "../../db/schema";
import { getDb } from "../../db/client";
import { manualClock } from "../clock";
import type { Principal } from "../principal";
import { rawClientOf } from "../raw-sql";
import { makeAgent, makeHuman } from "../../test/helpers";
import { makeReadyTask } from "../../test/fixtures/board";
import { claimNextTask } from "./claim-next";
import { claimTogether } from "./claim-together";

async function claimEvents(taskIds: string[]) {
  return getDb()
    .select({ id: events.id, kind: events.kind, actor: events.actor, taskId: events.taskId, tx: sql<string>`tx_id::text` })
    .from(events)
    .where(and(inArray(events.taskId, taskIds), inArray(events.kind, ["TaskClaimed", "FocusWindowOpened"])))
    .orderBy(events.id);
}

async function openWindowOf(agentId: string) {
  const rows = await getDb().select().from(focusWindows).where(eq(focusWindows.agentId, agentId));
  return rows.find((w) => w.closedAt === null)?.taskId ?? null;
}

const callsOf = (callers: Principal[], now: Date) => callers.map((caller) => ({ caller, now: now.toISOString() }));

describe("claims that queue together", () => {
  it("match each caller as it would be matched alone, and send back whoever was matched with a task it approves", async () => {
    const clock = manualClock();
    const lead = await makeHuman();
    const [reviewer, ada, bo, cy, dee] = await Promise.all(Array.from({ length: 5 }, () => makeAgent()));
    const approvedByReviewer = await makeReadyTask(lead, { title: "Oldest, approved by the reviewer", approverId: reviewer.id }, clock);
    const second = await makeReadyTask(lead, { title: "Second" }, clock);
    const third = await makeReadyTask(lead, { title: "Third" }, clock);
    const offered = await makeReadyTask(lead, { title: "Offered to dee" }, clock);
    await getDb().update(tasks).set({ offeredTo: dee.id }).where(eq(tasks.id, offered.id));

    const outcomes = await claimTogether(rawClientOf(getDb()), callsOf([reviewer, ada, bo, dee, cy], clock.now()));

    // The reviewer was matched with the task it approves: it claims again alone. Dee takes the task offered
    // to it; ada and bo take the next oldest in the order they came; cy, left without one while the
    // reviewer's task went unclaimed, claims again alone too (alone, it would have got that task).
    expect(outcomes.map((o) => (o === undefined ? "again" : o === null ? "none" : o.title))).toEqual(["again", "Second", "Third", "Offered to dee", "again"]);
    expect(outcomes[1]).toMatchObject({ id: second.id, ownerId: ada.id, ownerName: ada.name, fence: 1, status: "in_progress", approverName: lead.name });
    expect(outcomes[2]).toMatchObject({ id: third.id, ownerId: bo.id, fence: 1 });
    expect(outcomes[3]).toMatchObject({ id: offered.id, ownerId: dee.id, offeredTo: null });
    const [left] = await getDb().select().from(tasks).where(eq(tasks.id, approvedByReviewer.id));
    expect(left).toMatchObject({ status: "ready", ownerId: null, fence: 0 });

    // Alone, the reviewer still skips its own task, and cy takes it.
    expect(await claimNextTask(getDb(), reviewer, clock)).toBeNull();
    expect(await claimNextTask(getDb(), cy, clock)).toMatchObject({ id: approvedByReviewer.id, ownerId: cy.id });
  });

  it("write each claim's TaskClaimed then, for an agent, its FocusWindowOpened, claim after claim, in one transaction", async () => {
    const clock = manualClock();
    const lead = await makeHuman();
    const agents = await Promise.all(Array.from({ length: 4 }, () => makeAgent()));
    const human = await makeHuman();
    const board = [];
    for (let i = 0; i < 6; i++) board.push(await makeReadyTask(lead, { title: `Task ${i}` }, clock));
    // The first agent already focuses on a task of its own: its window moves.
    const [earlier] = board.splice(0, 1);
    await claimNextTask(getDb(), agents[0], clock);

    const outcomes = await claimTogether(rawClientOf(getDb()), callsOf([...agents, human], clock.now()));
    const claimed = board.map((t) => t.id);
    expect(outcomes.map((o) => o?.id)).toEqual(claimed);
    expect(outcomes[4]).toMatchObject({ ownerId: human.id, ownerKind: "human" });

    const journal = await claimEvents(claimed);
    expect(new Set(journal.map((e) => e.tx)).size).toBe(1);
    // Humans do not focus: the human's claim has no window.
    expect(journal.map((e) => [e.kind, e.actor, e.taskId])).toEqual([
      ...agents.flatMap((agent, i) => [
        ["TaskClaimed", agent.id, claimed[i]],
        ["FocusWindowOpened", agent.id, claimed[i]],
      ]),
      ["TaskClaimed", human.id, claimed[4]],
    ]);
    const [moved] = await getDb().select({ data: events.data }).from(events).where(sql`${events.kind} = 'FocusWindowOpened' and ${events.taskId} = ${claimed[0]}`);
    expect(moved.data).toMatchObject({ agentId: agents[0].id, taskId: claimed[0], previousTaskId: earlier.id });
    for (const [i, agent] of agents.entries()) expect(await openWindowOf(agent.id)).toBe(claimed[i]);
    expect(await openWindowOf(human.id)).toBeNull();
  });

  it("from many callers at once: every task to exactly one, in fewer transactions than claims, the same agent twice included", async () => {
    const clock = manualClock();
    const lead = await makeHuman();
    const agents = await Promise.all(Array.from({ length: 12 }, () => makeAgent()));
    const board = [];
    for (let i = 0; i < 14; i++) board.push(await makeReadyTask(lead, { title: `Burst ${i}` }, clock));

    // Twelve agents at once, the first of them twice: two claims go at once, the rest queue and go together.
    const callers = [agents[0], ...agents];
    const claimed = await Promise.all(callers.map((agent) => claimNextTask(getDb(), agent, clock)));

    expect(claimed.every((t) => t !== null)).toBe(true);
    const ids = claimed.map((t) => t!.id);
    expect(new Set(ids).size).toBe(13);
    expect(claimed.map((t) => t!.ownerId)).toEqual(callers.map((a) => a.id));
    const journal = await claimEvents(ids);
    const claims = journal.filter((e) => e.kind === "TaskClaimed");
    expect(claims).toHaveLength(13);
    expect(new Set(claims.map((e) => e.tx)).size).toBeLessThan(13);
    // The agent that claimed twice got two tasks and focuses on one of them (its two claims raced each other).
    const twice = claimed.filter((t) => t!.ownerId === agents[0].id).map((t) => t!.id);
    expect(twice).toHaveLength(2);
    expect(twice).toContain(await openWindowOf(agents[0].id));
    const [{ ready }] = await getDb().select({ ready: sql<number>`count(*)::int` }).from(tasks).where(eq(tasks.status, "ready"));
    expect(ready).toBe(1);
  });
});

// The board's happy paths through the server functions: every transition and its journal event.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { focusWindows, tasks } from "../../db/schema";
import { getDb } from "../../db/client";
import { manualClock } from "../clock";
import { defaultLeaseSeconds } from "../config";
import { appendOutput } from "./append-output";
import { cancelTask } from "./cancel";
import { claimTask } from "./claim";
import { claimNextTask } from "./claim-next";
import { getTaskDetail } from "./get";
import { heartbeat } from "./heartbeat";
import { listOutput } from "./list-output";
import { listTasks } from "./list";
import { reopenTask } from "./reopen";
import { requireAccepted } from "./require-accepted";
import { reviewTask } from "./review";
import { submitTask } from "./submit";
import { makeReadyTask, makeTeam, taskEventKinds } from "../../test/fixtures/board";

const MINUTE = 60_000;
const adr = { title: "Drop the XML parser", context: "Nobody sends XML any more.", decision: "Cancel the task.", consequences: "XML input stays unsupported." };

async function openWindow(agentId: string) {
  const rows = await getDb().select().from(focusWindows).where(eq(focusWindows.agentId, agentId));
  return rows.find((w) => w.closedAt === null) ?? null;
}

describe("a task's life", () => {
  it("goes ready → in_progress → review → (reject) in_progress → review → done, fenced and journalled", async () => {
    const db = getDb();
    const clock = manualClock(new Date());
    const {
      lead,
      workers: [ada],
    } = await makeTeam(1);
    const created = await makeReadyTask(lead, {}, clock);
    expect(created).toMatchObject({ status: "ready", fence: 0, ownerId: null, approverId: lead.id, createdBy: lead.id, outputCount: 0, leaseExpiresAt: null });

    const claimed = await claimTask(db, ada, created.id, clock);
    expect(claimed).toMatchObject({ status: "in_progress", ownerId: ada.id, ownerName: ada.name, fence: 1 });
    expect(Date.parse(claimed.leaseExpiresAt!)).toBe(clock.now().getTime() + 30 * MINUTE);
    expect((await openWindow(ada.id))?.taskId).toBe(created.id);

    clock.advance(20 * MINUTE);
    const renewed = await heartbeat(db, ada, created.id, { fence: 1 }, clock);
    expect(Date.parse(renewed.leaseExpiresAt!)).toBe(clock.now().getTime() + 30 * MINUTE);

    await appendOutput(db, ada, created.id, { fence: 1, items: [{ step: "read" }, { step: "edit" }] }, clock);
    const withOutput = await appendOutput(db, ada, created.id, { fence: 1, items: ["ran the tests"] }, clock);
    expect(withOutput.outputCount).toBe(3);
    expect((await listOutput(db, created.id, {})).items.map((i) => i.item)).toEqual([{ step: "read" }, { step: "edit" }, "ran the tests"]);
    expect((await listOutput(db, created.id, { after: 2 })).items.map((i) => i.seq)).toEqual([3]);

    const submitted = await submitTask(db, ada, created.id, { fence: 1, summary: "parse('') returns []", evidence: "✓ 12 tests passed" }, clock);
    expect(submitted).toMatchObject({ status: "review", leaseExpiresAt: null, ownerId: ada.id });
    expect(await openWindow(ada.id)).toBeNull();

    const rejected = await reviewTask(db, lead, created.id, { verdict: "reject", reason: "add a test for whitespace-only input" }, clock);
    expect(rejected).toMatchObject({ status: "in_progress", ownerId: ada.id, fence: 1 });
    expect(Date.parse(rejected.leaseExpiresAt!)).toBe(clock.now().getTime() + 30 * MINUTE);
    expect((await openWindow(ada.id))?.taskId).toBe(created.id);

    await submitTask(db, ada, created.id, { fence: 1, summary: "also whitespace", evidence: "✓ 13 tests passed" }, clock);
    const accepted = await reviewTask(db, lead, created.id, { verdict: "accept" }, clock);
    expect(accepted.status).toBe("done");
    await expect(requireAccepted(db, created.id)).resolves.toMatchObject({ reviewerId: lead.id, ownerId: ada.id });

    const detail = await getTaskDetail(db, lead, created.id);
    expect(detail.reviews.map((r) => [r.verdict, r.reason])).toEqual([
      ["reject", "add a test for whitespace-only input"],
      ["accept", null],
    ]);
    expect(detail.evidence.map((e) => e.evidence)).toEqual(["✓ 12 tests passed", "✓ 13 tests passed"]);
    expect(detail.outputTail).toHaveLength(3);

    expect(await taskEventKinds(created.id)).toEqual([
      "TaskCreated",
      "TaskClaimed",
      "FocusWindowOpened",
      "LeaseRenewed",
      "OutputAppended",
      "OutputAppended",
      "TaskSubmitted",
      "FocusWindowClosed",
      "TaskReviewed",
      "FocusWindowOpened",
      // The human's verdict is said on the task's thread by Quorum (it waits in the reworking owner's digest).
      "MessageSent",
      "MessageDelivered",
      "TaskSubmitted",
      "DigestFlushed",
      "FocusWindowClosed",
      "TaskReviewed",
      "MessageSent",
      "MessageDelivered",
    ]);
  });

  it("reopens a done task on new evidence; the next claim raises the fence and keeps the output", async () => {
    const db = getDb();
    const clock = manualClock(new Date());
    const {
      lead,
      workers: [ada, bo],
    } = await makeTeam(2);
    const task = await makeReadyTask(lead, {}, clock);
    await claimTask(db, ada, task.id, clock);
    await appendOutput(db, ada, task.id, { fence: 1, items: ["first"] }, clock);
    await submitTask(db, ada, task.id, { fence: 1, summary: "done", evidence: "green" }, clock);
    await reviewTask(db, lead, task.id, { verdict: "accept" }, clock);

    const reopened = await reopenTask(db, lead, task.id, { evidence: "parse(' ') still throws: TypeError at line 3" }, clock);
    expect(reopened).toMatchObject({ status: "ready", ownerId: null, fence: 1, outputCount: 1 });
    await expect(requireAccepted(db, task.id)).rejects.toMatchObject({ code: "not_accepted", status: 409 });

    const next = await claimNextTask(db, bo, clock);
    expect(next).toMatchObject({ id: task.id, ownerId: bo.id, fence: 2, outputCount: 1 });
    expect((await getTaskDetail(db, lead, task.id)).evidence.map((e) => e.kind)).toEqual(["submission", "reopen"]);
    expect(await taskEventKinds(task.id)).toContain("TaskReopened");
  });

  it("cancels with an ADR that is stored, linked and shown, and closes the owner's focus window", async () => {
    const db = getDb();
    const clock = manualClock(new Date());
    const {
      lead,
      workers: [ada],
    } = await makeTeam(1);
    const task = await makeReadyTask(lead, {}, clock);
    await claimTask(db, ada, task.id, clock);
    const cancelled = await cancelTask(db, lead, task.id, { adr }, clock);
    expect(cancelled).toMatchObject({ status: "cancelled", leaseExpiresAt: null });
    expect(cancelled.adrId).toBeTruthy();
    const detail = await getTaskDetail(db, lead, task.id);
    expect(detail.adr).toMatchObject({ id: cancelled.adrId, ...adr, authorId: lead.id });
    expect(await openWindow(ada.id)).toBeNull();
    // The holder is told (a direct message from the system, after the commit): MessageSent and its delivery.
    expect(await taskEventKinds(task.id)).toEqual(["TaskCreated", "TaskClaimed", "FocusWindowOpened", "TaskCancelled", "FocusWindowClosed", "MessageSent", "MessageDelivered"]);
    expect((await listTasks(db, { status: ["cancelled"] })).items.map((t) => t.id)).toContain(task.id);
  });

  it("honours the lease length of the task before the configured default (QUORUM_LEASE_*: lease-setting.test.ts)", async () => {
    const db = getDb();
    const clock = manualClock(new Date());
    const {
      lead,
      workers: [ada],
    } = await makeTeam(1);
    const short = await makeReadyTask(lead, { leaseMinutes: 5 }, clock);
    expect(Date.parse((await claimTask(db, ada, short.id, clock)).leaseExpiresAt!)).toBe(clock.now().getTime() + 5 * MINUTE);
    const global = await makeReadyTask(lead, {}, clock);
    const next = await claimNextTask(db, ada, clock);
    expect(next?.id).toBe(global.id);
    expect(Date.parse(next!.leaseExpiresAt!)).toBe(clock.now().getTime() + defaultLeaseSeconds() * 1_000);
  });

  it("claim-next prefers the task offered to the caller, then the oldest, and answers null when none is ready", async () => {
    const db = getDb();
    const clock = manualClock(new Date());
    const {
      lead,
      workers: [ada, bo],
    } = await makeTeam(2);
    const older = await makeReadyTask(lead, { title: "older" }, clock);
    const offered = await makeReadyTask(lead, { title: "offered" }, clock);
    await makeReadyTask(lead, { title: "no criteria", acceptanceCriteria: undefined }, clock);
    await db.update(tasks).set({ offeredTo: bo.id }).where(eq(tasks.id, offered.id));
    expect((await claimNextTask(db, bo, clock))?.id).toBe(offered.id);
    expect((await claimNextTask(db, ada, clock))?.id).toBe(older.id);
    expect(await claimNextTask(db, ada, clock)).toBeNull();
    // The approver is never handed its own task.
    const own = await makeReadyTask(ada, { title: "ada approves this" }, clock);
    expect(await claimNextTask(db, ada, clock)).toBeNull();
    expect((await claimNextTask(db, bo, clock))?.id).toBe(own.id);
  });
});

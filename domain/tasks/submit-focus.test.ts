// Submit closes the owner's focus window on both of its paths: an empty digest (the two-trip write) and a
// digest holding messages (flushed as one batch); the views the owner's writes return equal a fresh read.
import { and, asc, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { events } from "../../db/schema";
import { getDb } from "../../db/client";
import { manualClock } from "../clock";
import { readDigest } from "../rooms/digest";
import { readInbox } from "../rooms/inbox";
import { appendOutput } from "./append-output";
import { claimNextTask } from "./claim-next";
import { heartbeat } from "./heartbeat";
import { submitTask } from "./submit";
import { readTaskView } from "./view";
import { makeReadyTask, makeTeam } from "../../test/fixtures/board";
import { makeHuman } from "../../test/helpers";
import { freshRoom, tryPost } from "../../test/fixtures/room";

const FOCUS_KINDS = ["TaskClaimed", "FocusWindowOpened", "TaskSubmitted", "DigestFlushed", "MessageDelivered", "FocusWindowClosed"];

async function focusEvents(actor: string) {
  const rows = await getDb()
    .select()
    .from(events)
    .where(and(eq(events.actor, actor), inArray(events.kind, FOCUS_KINDS)))
    .orderBy(asc(events.id));
  return rows.map((e) => ({ kind: e.kind, data: e.data as Record<string, unknown> }));
}

describe("submit and the focus window", () => {
  it("closes an empty window in the same write, after TaskSubmitted; each owner write's view equals a fresh read", async () => {
    const db = getDb();
    const clock = manualClock(new Date());
    const {
      lead,
      workers: [ada],
    } = await makeTeam(1);
    const created = await makeReadyTask(lead, {}, clock);
    const claimed = await claimNextTask(db, ada, clock);
    expect(claimed).toEqual(await readTaskView(db, created.id));
    clock.advance(60_000);
    expect(await heartbeat(db, ada, created.id, { fence: 1 }, clock)).toEqual(await readTaskView(db, created.id));
    expect(await appendOutput(db, ada, created.id, { fence: 1, items: [{ step: 1 }, "two"] }, clock)).toEqual(await readTaskView(db, created.id));
    const submitted = await submitTask(db, ada, created.id, { fence: 1, summary: "done", evidence: "green" }, clock);
    expect(submitted).toEqual(await readTaskView(db, created.id));
    expect(submitted).toMatchObject({ status: "review", leaseExpiresAt: null, outputCount: 2 });
    expect((await focusEvents(ada.id)).map((e) => e.kind)).toEqual(["TaskClaimed", "FocusWindowOpened", "TaskSubmitted", "FocusWindowClosed"]);
    expect((await focusEvents(ada.id)).at(-1)?.data).toEqual({ agentId: ada.id, taskId: created.id, reason: "task_changed", delivered: 0, dropped: 0 });
  });

  it("flushes a digest holding messages as one batch, then closes the window", async () => {
    const db = getDb();
    const clock = manualClock(new Date());
    const human = await makeHuman();
    const {
      lead,
      workers: [ada],
    } = await makeTeam(1);
    const room = await freshRoom(human);
    const created = await makeReadyTask(lead, {}, clock);
    await claimNextTask(db, ada, clock);
    await tryPost(human, room, "while you work: the schema changed", clock);
    expect((await readDigest(db, ada.id)).items.map((m) => m.body)).toEqual(["while you work: the schema changed"]);

    await submitTask(db, ada, created.id, { fence: 1, summary: "done", evidence: "green" }, clock);
    const kinds = (await focusEvents(ada.id)).map((e) => e.kind);
    expect(kinds).toEqual(["TaskClaimed", "FocusWindowOpened", "TaskSubmitted", "DigestFlushed", "MessageDelivered", "FocusWindowClosed"]);
    expect((await focusEvents(ada.id)).at(-1)?.data).toMatchObject({ delivered: 1, dropped: 0 });
    expect((await readInbox(db, ada, room)).items.map((m) => m.body)).toEqual(["while you work: the schema changed"]);
    expect(await readDigest(db, ada.id)).toMatchObject({ focusing: false, items: [] });
  });

  it("closes a window opened after this submit read its clock (a claim on another instance, both paths), never before it opened", async () => {
    // Two instances: the claim that opened the window read a clock a little later than the submit
    // that closes it, which began first and waited for the task's lock.
    const db = getDb();
    const human = await makeHuman();
    const submitClock = manualClock(new Date());
    const claimClock = manualClock(new Date(submitClock.now().getTime() + 400));
    const {
      lead,
      workers: [ada],
    } = await makeTeam(1);
    const room = await freshRoom(human);
    for (const withDigest of [false, true]) {
      const created = await makeReadyTask(lead, {}, claimClock);
      await claimNextTask(db, ada, claimClock);
      if (withDigest) await tryPost(human, room, "news while you work", claimClock);
      const submitted = await submitTask(db, ada, created.id, { fence: 1, summary: "done", evidence: "green" }, submitClock);
      expect(submitted.status).toBe("review");
      expect((await focusEvents(ada.id)).at(-1)?.kind).toBe("FocusWindowClosed");
      submitClock.advance(10_000);
      claimClock.advance(10_000);
    }
  });
});

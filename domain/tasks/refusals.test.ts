// Every refusal of the board through the server functions, and the database's own guards behind them.
import { describe, expect, it } from "vitest";
import { getConnection, getDb } from "../../db/client";
import { manualClock } from "../clock";
import { makeAgent } from "../../test/helpers";
import { appendOutput } from "./append-output";
import { cancelTask } from "./cancel";
import { claimTask } from "./claim";
import { heartbeat } from "./heartbeat";
import { reopenTask } from "./reopen";
import { requireAccepted } from "./require-accepted";
import { reviewTask } from "./review";
import { submitTask } from "./submit";
import { makeReadyTask, makeTeam, taskEventKinds } from "../../test/fixtures/board";
import { readTaskView } from "./view";

const adr = { title: "t", context: "c", decision: "d", consequences: "q" };

async function inProgress() {
  const clock = manualClock(new Date());
  const {
    lead,
    workers: [ada, bo],
  } = await makeTeam(2);
  const task = await makeReadyTask(lead, {}, clock);
  await claimTask(getDb(), ada, task.id, clock);
  return { clock, lead, ada, bo, task };
}

describe("refusals", () => {
  it("refuses to start work without acceptance criteria, and changes nothing", async () => {
    const clock = manualClock(new Date());
    const {
      lead,
      workers: [ada],
    } = await makeTeam(1);
    const vague = await makeReadyTask(lead, { acceptanceCriteria: "   " }, clock);
    await expect(claimTask(getDb(), ada, vague.id, clock)).rejects.toMatchObject({
      status: 409,
      code: "no_acceptance_criteria",
      message: expect.stringMatching(/no acceptance criteria/),
    });
    expect(await readTaskView(getDb(), vague.id)).toMatchObject({ status: "ready", fence: 0, ownerId: null });
    expect(await taskEventKinds(vague.id)).toEqual(["TaskCreated"]);
  });

  it("refuses illegal transitions with wrong_status naming the current status", async () => {
    const { clock, lead, ada, bo, task } = await inProgress();
    const db = getDb();
    await expect(claimTask(db, bo, task.id, clock)).rejects.toMatchObject({ status: 409, code: "wrong_status", extra: { status: "in_progress" } });
    await expect(reviewTask(db, lead, task.id, { verdict: "accept" }, clock)).rejects.toMatchObject({ code: "wrong_status", extra: { status: "in_progress" } });
    await expect(reopenTask(db, lead, task.id, { evidence: "x" }, clock)).rejects.toMatchObject({ code: "wrong_status" });
    await submitTask(db, ada, task.id, { fence: 1, summary: "s", evidence: "e" }, clock);
    await expect(heartbeat(db, ada, task.id, { fence: 1 }, clock)).rejects.toMatchObject({ code: "wrong_status", extra: { status: "review" } });
    await expect(appendOutput(db, ada, task.id, { fence: 1, items: [1] }, clock)).rejects.toMatchObject({ code: "wrong_status" });
    await reviewTask(db, lead, task.id, { verdict: "accept" }, clock);
    await expect(cancelTask(db, lead, task.id, { adr }, clock)).rejects.toMatchObject({ code: "wrong_status", extra: { status: "done" } });
    await expect(submitTask(db, ada, task.id, { fence: 1, summary: "s", evidence: "e" }, clock)).rejects.toMatchObject({ code: "wrong_status" });
    expect((await readTaskView(db, task.id)).status).toBe("done");
  });

  it("refuses every owner write with a stale fence (409 stale_fence) and changes nothing", async () => {
    const { clock, ada, task } = await inProgress();
    const db = getDb();
    const before = await readTaskView(db, task.id);
    clock.advance(60_000);
    for (const write of [
      () => heartbeat(db, ada, task.id, { fence: 0 }, clock),
      () => appendOutput(db, ada, task.id, { fence: 7, items: ["late"] }, clock),
      () => submitTask(db, ada, task.id, { fence: 0, summary: "s", evidence: "e" }, clock),
    ]) {
      await expect(write()).rejects.toMatchObject({ status: 409, code: "stale_fence", extra: { fence: 1 } });
    }
    expect(await readTaskView(db, task.id)).toEqual(before);
    expect(await taskEventKinds(task.id)).toEqual(["TaskCreated", "TaskClaimed", "FocusWindowOpened"]);
  });

  it("lets only the owner write, only the approver review, and never the approver own", async () => {
    const { clock, lead, ada, bo, task } = await inProgress();
    const db = getDb();
    await expect(heartbeat(db, bo, task.id, { fence: 1 }, clock)).rejects.toMatchObject({ status: 403 });
    await expect(appendOutput(db, bo, task.id, { fence: 1, items: ["x"] }, clock)).rejects.toMatchObject({ status: 403 });
    await submitTask(db, ada, task.id, { fence: 1, summary: "s", evidence: "e" }, clock);
    await expect(reviewTask(db, bo, task.id, { verdict: "accept" }, clock)).rejects.toMatchObject({ status: 403 });
    await expect(reviewTask(db, ada, task.id, { verdict: "accept" }, clock)).rejects.toMatchObject({ status: 403 });
    const own = await makeReadyTask(lead, { approverId: bo.id }, clock);
    await expect(claimTask(db, bo, own.id, clock)).rejects.toMatchObject({ status: 403, message: expect.stringMatching(/approver is never the owner/) });
    expect((await readTaskView(db, task.id)).status).toBe("review");
  });

  it("reopens only on evidence not already on record, and only for a human, the creator or the approver", async () => {
    const { clock, lead, ada, bo, task } = await inProgress();
    const db = getDb();
    await submitTask(db, ada, task.id, { fence: 1, summary: "s", evidence: "all 12 tests pass" }, clock);
    await reviewTask(db, lead, task.id, { verdict: "accept" }, clock);
    await expect(reopenTask(db, lead, task.id, { evidence: "all 12 tests pass" }, clock)).rejects.toMatchObject({ status: 400 });
    await expect(reopenTask(db, bo, task.id, { evidence: "it broke" }, clock)).rejects.toMatchObject({ status: 403 });
    expect((await readTaskView(db, task.id)).status).toBe("done");
  });

  it("cancels only for a steward, and never twice", async () => {
    const clock = manualClock(new Date());
    const {
      lead,
      workers: [ada],
    } = await makeTeam(1);
    const task = await makeReadyTask(lead, {}, clock);
    await expect(cancelTask(getDb(), ada, task.id, { adr }, clock)).rejects.toMatchObject({ status: 403 });
    await cancelTask(getDb(), lead, task.id, { adr }, clock);
    await expect(cancelTask(getDb(), lead, task.id, { adr }, clock)).rejects.toMatchObject({ code: "wrong_status", extra: { status: "cancelled" } });
    await expect(claimTask(getDb(), ada, task.id, clock)).rejects.toMatchObject({ code: "wrong_status" });
  });

  it("answers 404 for unknown and malformed task ids", async () => {
    const agent = await makeAgent();
    const clock = manualClock();
    await expect(claimTask(getDb(), agent, "00000000-0000-4000-8000-000000000000", clock)).rejects.toMatchObject({ status: 404 });
    await expect(claimTask(getDb(), agent, "not-a-uuid", clock)).rejects.toMatchObject({ status: 404 });
    await expect(requireAccepted(getDb(), "nope")).rejects.toMatchObject({ status: 404 });
  });

  it("requireAccepted throws before the approver's ACCEPT", async () => {
    const { clock, lead, ada, task } = await inProgress();
    await expect(requireAccepted(getDb(), task.id)).rejects.toMatchObject({ code: "not_accepted", extra: { status: "in_progress" } });
    await submitTask(getDb(), ada, task.id, { fence: 1, summary: "s", evidence: "e" }, clock);
    await reviewTask(getDb(), lead, task.id, { verdict: "reject", reason: "missing test" }, clock);
    await expect(requireAccepted(getDb(), task.id)).rejects.toMatchObject({ code: "not_accepted" });
  });
});

describe("the database's guards (a second writer cannot skip the rules)", () => {
  it("refuses an owner who is the approver, illegal transitions, a moved fence and a burial without an ADR", async () => {
    const { task, lead } = await inProgress();
    const { sql: raw } = getConnection();
    await expect(raw`update tasks set owner_id = approver_id where id = ${task.id}`).rejects.toThrow(/owner changes only through ready/);
    await expect(raw`update tasks set status = 'done', lease_expires_at = null where id = ${task.id}`).rejects.toThrow(/not a legal transition/);
    await expect(raw`update tasks set fence = 0 where id = ${task.id}`).rejects.toThrow(/fence changes only on a claim/);
    await expect(raw`update tasks set status = 'cancelled', lease_expires_at = null where id = ${task.id}`).rejects.toThrow(/tasks_cancel_adr_check/);
    await expect(raw`update tasks set lease_expires_at = null where id = ${task.id}`).rejects.toThrow(/tasks_lease_check/);
    const ready = await makeReadyTask(lead);
    const claimAs = (owner: string, id = ready.id) =>
      raw`update tasks set status = 'in_progress', owner_id = ${owner}, fence = fence + 1, lease_expires_at = now() where id = ${id}`;
    await expect(claimAs(lead.id)).rejects.toThrow(/tasks_approver_not_owner_check/);
    const vague = await makeReadyTask(lead, { acceptanceCriteria: undefined });
    await expect(claimAs(task.ownerId!, vague.id)).rejects.toThrow(/tasks_criteria_check/);
    await expect(raw`update tasks set fence = fence + 2, status = 'in_progress', owner_id = ${task.ownerId}, lease_expires_at = now() where id = ${ready.id}`).rejects.toThrow(
      /must set fence to 1/,
    );
  });

  it("keeps output append-only", async () => {
    const { clock, ada, task } = await inProgress();
    await appendOutput(getDb(), ada, task.id, { fence: 1, items: ["kept"] }, clock);
    const { sql: raw } = getConnection();
    await expect(raw`update task_outputs set item = '"forged"' where task_id = ${task.id}`).rejects.toThrow(/append-only/);
    await expect(raw`delete from task_outputs where task_id = ${task.id}`).rejects.toThrow(/append-only/);
    await expect(raw`update tasks set output_count = 0 where id = ${task.id}`).rejects.toThrow(/append-only/);
  });
});

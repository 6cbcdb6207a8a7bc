// The tests' gate on an ACCEPT (db/functions/quorum_accept_refusal.sql, domain/tasks/review.ts): a submission's
// per-test results must show every target test passing and nothing newly broken against the flight's baseline;
// a human may accept over it, saying why; an agent may not. And the delta itself, case by case.
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { events, tasks } from "../../db/schema";
import { getDb } from "../../db/client";
import { manualClock } from "../clock";
import { QuorumError } from "../errors";
import type { Principal } from "../principal";
import type { TestDelta, TestResults } from "../verification/test-results";
import { makeAgent } from "../../test/helpers";
import { makeReadyTask, makeTeam } from "../../test/fixtures/board";
import { claimTask } from "./claim";
import { editTask } from "./edit";
import { getTaskDetail } from "./get";
import { reviewTask } from "./review";
import { submitTask } from "./submit";

const results = (passed: string[], failed: string[], more: Partial<TestResults> = {}): TestResults => ({
  format: "tap",
  namesPasses: true,
  passed,
  failed,
  skipped: [],
  truncated: false,
  ...more,
});

async function submitted(approver: Principal, owner: Principal, targets: string[], tests?: TestResults) {
  const clock = manualClock();
  const task = await makeReadyTask(approver, { approverId: approver.id, ...(targets.length && { targetTests: targets }) }, clock);
  await claimTask(getDb(), owner, task.id, clock);
  await submitTask(getDb(), owner, task.id, { fence: 1, summary: "fixed", evidence: "see the run", ...(tests && { tests }) }, clock);
  return { task, clock };
}

async function refusalOf(run: Promise<unknown>): Promise<QuorumError> {
  const error = await run.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(QuorumError);
  return error as QuorumError;
}

describe("the tests' gate on an accept", () => {
  it("refuses an accept while a target test fails or another test newly breaks, naming them; the owner's fix then passes", async () => {
    const db = getDb();
    const {
      lead,
      workers: [ada],
    } = await makeTeam(1);
    const { task, clock } = await submitted(lead, ada, ["slug > dashes spaces"], results(["slug > lower-cases"], ["slug > dashes spaces", "clamp > low"]));
    const refused = await refusalOf(reviewTask(db, lead, task.id, { verdict: "accept" }, clock));
    expect(refused).toMatchObject({ status: 409, code: "tests_refuse" });
    expect(refused.message).toBe(
      `the tests refuse to accept #${task.number}: target tests still failing: slug > dashes spaces; newly broken: clamp > low. accept anyway by saying why in \`overrule\`, or reject it`,
    );
    const [row] = await db.select({ status: tasks.status }).from(tasks).where(eq(tasks.id, task.id));
    expect(row.status).toBe("review");
    // The journal keeps what the submission's tests said, for the monitor to read rather than judge again.
    const [submittedEvent] = await db
      .select({ data: events.data })
      .from(events)
      .where(and(eq(events.taskId, task.id), eq(events.kind, "TaskSubmitted")));
    expect(submittedEvent.data).toMatchObject({
      tests: { passed: 1, failed: 2, baseline: false, delta: { fixed: [], stillFailing: ["slug > dashes spaces"], unseen: [], broken: ["clamp > low"] } },
    });
    // The page shows what the gate sees.
    expect((await getTaskDetail(db, lead, task.id)).tests).toMatchObject({
      targets: ["slug > dashes spaces"],
      hasBaseline: false,
      delta: { fixed: [], stillFailing: ["slug > dashes spaces"], unseen: [], broken: ["clamp > low"] },
      refusal: "target tests still failing: slug > dashes spaces; newly broken: clamp > low",
    });

    await reviewTask(db, lead, task.id, { verdict: "reject", reason: "make the dashes test pass" }, clock);
    await submitTask(
      db,
      ada,
      task.id,
      { fence: 1, summary: "fixed", evidence: "see the run", tests: results(["slug > lower-cases", "slug > dashes spaces", "clamp > low"], []) },
      clock,
    );
    expect(await reviewTask(db, lead, task.id, { verdict: "accept" }, clock)).toMatchObject({ status: "done" });
  });

  it("lets a human accept over it with a reason, journalled; an agent approver may not, and nothing changes", async () => {
    const db = getDb();
    const {
      lead,
      workers: [ada, reviewer],
    } = await makeTeam(2);
    const byAgent = await submitted(reviewer, ada, ["add > adds"], results(["mul > multiplies"], ["add > adds"]));
    const agentRefused = await refusalOf(reviewTask(db, reviewer, byAgent.task.id, { verdict: "accept", reason: "looks right" }, byAgent.clock));
    expect(agentRefused.message).toMatch(/reject it with these words, so its owner can fix them$/);
    expect((await refusalOf(reviewTask(db, reviewer, byAgent.task.id, { verdict: "accept", overrule: "trust me" }, byAgent.clock))).status).toBe(403);

    const byHuman = await submitted(lead, ada, ["add > adds"], results(["mul > multiplies"], ["add > adds"]));
    const done = await reviewTask(db, lead, byHuman.task.id, { verdict: "accept", overrule: "the add test is flaky upstream; tracked in #9" }, byHuman.clock);
    expect(done.status).toBe("done");
    const [reviewed] = await db
      .select({ data: events.data })
      .from(events)
      .where(and(eq(events.taskId, byHuman.task.id), eq(events.kind, "TaskReviewed")));
    expect(reviewed.data).toMatchObject({
      verdict: "accept",
      overruled: { refusal: "target tests still failing: add > adds", reason: "the add test is flaky upstream; tracked in #9" },
    });
  });

  it("asks nothing of a task with no run and no targets, refuses one whose targets no run stands behind, and has nothing to overrule when it passes", async () => {
    const db = getDb();
    const {
      lead,
      workers: [ada],
    } = await makeTeam(1);
    const plain = await submitted(lead, ada, []);
    expect(await reviewTask(db, lead, plain.task.id, { verdict: "accept" }, plain.clock)).toMatchObject({ status: "done" });
    const untested = await submitted(lead, ada, ["parses the empty string"]);
    expect((await refusalOf(reviewTask(db, lead, untested.task.id, { verdict: "accept" }, untested.clock))).message).toMatch(
      /no test run stands behind the submission, and its target tests \(parses the empty string\) must be seen passing/,
    );
    const green = await submitted(lead, ada, ["parses the empty string"], results(["parse > parses the empty string"], []));
    expect((await refusalOf(reviewTask(db, lead, green.task.id, { verdict: "accept", overrule: "just because" }, green.clock))).status).toBe(400);
  });

  it("lets a human correct an open task's target tests; an agent only edits a ready task it filed", async () => {
    const db = getDb();
    const {
      lead,
      workers: [ada],
    } = await makeTeam(1);
    const { task, clock } = await submitted(lead, ada, ["wrong name"], results(["slug > dashes spaces"], []));
    expect((await getTaskDetail(db, lead, task.id)).tests.refusal).toBe("target tests the run did not name: wrong name");
    const edited = await editTask(db, lead, task.id, { targetTests: ["dashes spaces"] }, clock);
    expect(edited.targetTests).toEqual(["dashes spaces"]);
    expect((await getTaskDetail(db, lead, task.id)).tests).toMatchObject({ delta: { fixed: ["dashes spaces"] }, refusal: null });
    expect((await refusalOf(editTask(db, lead, task.id, { title: "a new title" }, clock))).code).toBe("wrong_status");
    expect((await refusalOf(editTask(db, await makeAgent(), task.id, { targetTests: [] }, clock))).status).toBe(403);
  });
});

describe("a task's test delta", () => {
  const delta = async (baseline: TestResults | null, latest: TestResults, targets: string[]) =>
    (
      await getDb().execute<{ d: TestDelta }>(
        sql`select quorum_test_delta(${baseline ? JSON.stringify(baseline) : null}::jsonb, ${JSON.stringify(latest)}::jsonb, array(select jsonb_array_elements_text(${JSON.stringify(targets)}::jsonb))) as d`,
      )
    )[0].d;

  it("excuses what was red at the baseline and is no target: two coders, each fixing one of two failing tests", async () => {
    const baseline = results([], ["add > adds", "mul > multiplies"]);
    expect(await delta(baseline, results(["add > adds"], ["mul > multiplies"]), ["add > adds"])).toEqual({
      fixed: ["add > adds"],
      stillFailing: [],
      unseen: [],
      broken: [],
      repaired: ["add > adds"],
    });
    // The wrong file fixed: its own target still fails, whatever else turned green.
    expect(await delta(baseline, results(["mul > multiplies"], ["add > adds"]), ["add > adds"])).toEqual({
      fixed: [],
      stillFailing: ["add > adds"],
      unseen: [],
      broken: [],
      repaired: ["mul > multiplies"],
    });
    // Without a baseline nothing says a failure was there before.
    expect((await delta(null, results(["add > adds"], ["mul > multiplies"]), ["add > adds"])).broken).toEqual(["mul > multiplies"]);
  });

  it("matches a target by a test's whole name or its end after a separator, never by a bare suffix", async () => {
    const latest = results(["tests/test_slug.py::test_dashes", "TestClamp/low", "suite > adds"], []);
    expect((await delta(null, latest, ["test_dashes", "low", "adds", "ds"])).fixed).toEqual(["test_dashes", "low", "adds"]);
    expect((await delta(null, latest, ["ds"])).unseen).toEqual(["ds"]);
  });

  it("passes a target a runner that names only failures does not name", async () => {
    expect(await delta(null, results([], ["b"], { namesPasses: false }), ["a"])).toMatchObject({ fixed: ["a"], broken: ["b"] });
  });
});

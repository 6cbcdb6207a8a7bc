// "B waits for A": B is not claimed, by id or by claim-next, until A is finished; a flight's task counts as
// finished once it is integrated; no dependency closes a cycle.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { flightTasks } from "../../db/schema";
import { getDb } from "../../db/client";
import { manualClock } from "../clock";
import { QuorumError } from "../errors";
import { makeReadyTask, makeTeam } from "../../test/fixtures/board";
import { claimTask } from "./claim";
import { claimNextTask } from "./claim-next";
import { addDependencies } from "./dependencies";
import { readTaskView } from "./view";
import { reviewTask } from "./review";
import { submitTask } from "./submit";

async function refusalOf(work: Promise<unknown>): Promise<QuorumError> {
  const outcome = await work.then(
    () => null,
    (error: unknown) => error,
  );
  if (!(outcome instanceof QuorumError)) throw new Error(`expected a refusal, got ${String(outcome)}`);
  return outcome;
}

describe("task dependencies", () => {
  it("hold a task back until what it waits for is done, and say which", async () => {
    const db = getDb();
    const clock = manualClock(new Date());
    const {
      lead,
      workers: [ada, bo],
    } = await makeTeam(2);
    const a = await makeReadyTask(lead, { title: "the parser" }, clock);
    const b = await makeReadyTask(lead, { title: "the CLI on the parser", dependsOn: [a.id] }, clock);
    expect(b.waitingOn).toBe(1);

    const refused = await refusalOf(claimTask(db, bo, b.id, clock));
    expect(refused.code).toBe("waiting_on_dependencies");
    expect(refused.message).toBe(`task #${b.number} waits for #${a.number} to be finished first`);
    expect(refused.extra.waitingFor).toEqual([a.number]);

    // claim-next passes over B, however old, and takes A; then there is nothing else.
    expect((await claimNextTask(db, ada, clock))?.id).toBe(a.id);
    expect(await claimNextTask(db, bo, clock)).toBeNull();

    const claimed = await readTaskView(db, a.id);
    await submitTask(db, ada, a.id, { fence: claimed.fence, summary: "parser done", evidence: "tests pass" }, clock);
    expect((await readTaskView(db, b.id)).waitingOn).toBe(1);
    await reviewTask(db, lead, a.id, { verdict: "accept", reason: "good" }, clock);
    expect((await readTaskView(db, b.id)).waitingOn).toBe(0);
    expect((await claimNextTask(db, bo, clock))?.id).toBe(b.id);
  });

  it("count a flight's task as finished only once it is integrated", async () => {
    const db = getDb();
    const clock = manualClock(new Date());
    const {
      lead,
      workers: [ada],
    } = await makeTeam(1);
    const a = await makeReadyTask(lead, {}, clock);
    const b = await makeReadyTask(lead, { dependsOn: [a.id] }, clock);
    // A flight row is needed for flight_tasks; the goal is any task.
    const [{ flightId }] = await db.execute<{ flightId: string }>(
      `insert into flights (goal, repo, goal_task_id, mode) values ('g', '/tmp/x', '${a.id}', 'scripted') returning id as "flightId"` as never,
    );
    await db.insert(flightTasks).values({ taskId: a.id, flightId });
    await claimTask(db, ada, a.id, clock);
    const claimed = await readTaskView(db, a.id);
    await submitTask(db, ada, a.id, { fence: claimed.fence, summary: "done", evidence: "tests pass" }, clock);
    await reviewTask(db, lead, a.id, { verdict: "accept", reason: "good" }, clock);
    expect((await readTaskView(db, b.id)).waitingOn).toBe(1);
    await db.update(flightTasks).set({ integratedAt: clock.now() }).where(eq(flightTasks.taskId, a.id));
    expect((await readTaskView(db, b.id)).waitingOn).toBe(0);
  });

  it("refuse an edge that would close a cycle, naming it, and change nothing", async () => {
    const db = getDb();
    const { lead } = await makeTeam(0);
    const a = await makeReadyTask(lead);
    const b = await makeReadyTask(lead, { dependsOn: [a.id] });
    const c = await makeReadyTask(lead, { dependsOn: [b.id] });
    const refused = await refusalOf(db.transaction((tx) => addDependencies(tx, a.id, [c.id])));
    expect(refused.code).toBe("cycle");
    expect(refused.extra.path).toEqual([`#${a.number}`, `#${c.number}`, `#${b.number}`, `#${a.number}`]);
    expect((await readTaskView(db, a.id)).waitingOn).toBe(0);
    const unknown = await refusalOf(makeReadyTask(lead, { dependsOn: ["00000000-0000-4000-8000-000000000000"] }));
    expect(unknown.kind).toBe("not_found");
  });
});

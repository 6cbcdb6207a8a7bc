// A goal's human asks for changes with line comments, as on a pull request: the team does not hand the same work
// in again. The orchestrator files a task carrying the reason and each comment by file and line, a coder's model
// reads them and makes the change, it is reviewed and integrated, the suite runs again, and the goal comes back.
import { execFileSync } from "node:child_process";
import { and, asc, eq, inArray } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { events, flights, tasks } from "../../db/schema";
import { systemClock } from "../../domain/clock";
import { addReviewComment } from "../../domain/tasks/comments";
import { reviewTask } from "../../domain/tasks/review";
import { fly, lastModelServer, liveModel, stopModelServers, suiteOn } from "../../test/fixtures/flying";
import { acceptingReviewer, cases, coderRun, twoFailuresRepo } from "../../test/fixtures/repos";
import { flightJournal, flightTaskIds, startWorker, until } from "../../test/fixtures/team";
import { diagnose } from "../../domain/diagnosis/diagnose";

afterEach(stopModelServers);

describe("request changes on a flight's goal", { timeout: 240_000 }, () => {
  it("becomes a task of the flight whose coder's model sees each comment by file and line; the goal comes back with the change", async () => {
    const db = getDb();
    const fixture = twoFailuresRepo();
    const coder = cases(
      ...(fixture.coder as ReturnType<typeof cases>),
      // The changes' task: clamp the other way round, as the line comment asks.
      { when: "Changes asked for on goal", runs: [coderRun("src/clamp.js", "  return Math.min(high, Math.max(low, n));", "  return Math.max(low, Math.min(high, n));")] },
    );
    const model = await liveModel({ orchestrator: fixture.orchestrator, coder, reviewer: acceptingReviewer }, "openai");
    const { flight, goalTask, human } = await fly(fixture.repo, fixture.goal, model);
    expect(flight.status).toBe("green");

    await addReviewComment(db, human, goalTask.id, { path: "src/clamp.js", line: 2, body: "Clamp to high last: Math.max(low, Math.min(high, n))." }, systemClock);
    await addReviewComment(db, human, goalTask.id, { path: "src/slug.js", line: 2, endLine: 2, body: "Fine as it is; no change here." }, systemClock);
    await reviewTask(db, human, goalTask.id, { verdict: "reject", reason: "One change to clamp, see the line." }, systemClock);

    const team = startWorker({ model, coders: 2 });
    try {
      await until(
        "the goal to come back for review after the changes",
        async () => {
          const [row] = await db.select({ status: flights.status }).from(flights).where(eq(flights.id, flight.id));
          const [goal] = await db.select({ status: tasks.status }).from(tasks).where(eq(tasks.id, goalTask.id));
          return row.status === "green" && goal.status === "review";
        },
        180_000,
      );
    } finally {
      await team.stop();
    }

    // One task was filed for the changes, with the reason and the comments by file and line.
    const [asked] = await db
      .select()
      .from(events)
      .where(and(eq(events.kind, "FlightChangesRequested"), eq(events.taskId, goalTask.id)));
    expect(asked.data).toMatchObject({ flightId: flight.id, comments: 2 });
    const ids = await flightTaskIds(flight.id);
    const [changes] = await db
      .select()
      .from(tasks)
      .where(and(inArray(tasks.id, ids), eq(tasks.title, `Changes asked for on goal #${goalTask.number}`)));
    expect(changes.status).toBe("done");
    expect(changes.description).toContain("One change to clamp, see the line.");
    expect(changes.description).toContain("- src/clamp.js:2: Clamp to high last: Math.max(low, Math.min(high, n)).");

    // The coder's model read them in its task.
    const requests = (await lastModelServer().requests()).filter((r) => r.role === "coder" && r.task.includes("Changes asked for on goal"));
    expect(requests.length).toBeGreaterThan(0);
    expect(requests[0].task).toContain("src/clamp.js:2: Clamp to high last");
    expect(requests[0].task).toContain("src/slug.js:2: Fine as it is");

    // The change is on the flight's branch, the suite passes there, and the goal was handed in again only after it was integrated.
    expect(execFileSync("git", ["-C", fixture.repo, "show", `${flight.branch}:src/clamp.js`], { encoding: "utf8" })).toContain("Math.max(low, Math.min(high, n))");
    expect(suiteOn(fixture.repo, flight.branch!, ["node", "--test"])).toBe(true);
    const order = await db
      .select({ id: events.id, kind: events.kind, taskId: events.taskId })
      .from(events)
      .where(and(inArray(events.taskId, [goalTask.id, changes.id]), inArray(events.kind, ["TaskSubmitted", "TaskIntegrated", "TaskReviewed"])))
      .orderBy(asc(events.id));
    const integrated = order.findIndex((e) => e.kind === "TaskIntegrated" && e.taskId === changes.id);
    const resubmitted = order.findLastIndex((e) => e.kind === "TaskSubmitted" && e.taskId === goalTask.id);
    const rejected = order.findIndex((e) => e.kind === "TaskReviewed" && e.taskId === goalTask.id);
    expect(rejected).toBeGreaterThan(-1);
    expect(order.filter((e) => e.kind === "TaskSubmitted" && e.taskId === goalTask.id)).toHaveLength(2);
    expect(integrated).toBeGreaterThan(rejected);
    expect(resubmitted).toBeGreaterThan(integrated);

    // A careful loop: the monitor finds nothing (the changes' task edits what an earlier task changed, in turn;
    // the goal was handed in again changed; the team said it was back in new words).
    expect(diagnose(await flightJournal(flight.id)).map((f) => `${f.mode}: ${f.sentence}`)).toEqual([]);
  });
});

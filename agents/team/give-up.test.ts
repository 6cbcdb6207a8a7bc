// Nobody is left holding a task: a coder whose work is rejected three times gives the task up at once (not
// at its lease's end); the scripted team cannot re-plan, so the goal goes to its human under "waiting for
// you" with the reason, and their Retry starts the task afresh.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, asc, eq, inArray } from "drizzle-orm";
import { expect, it } from "vitest";
import { getConnection, getDb } from "../../db/client";
import { events, flightTasks, tasks } from "../../db/schema";
import { systemClock } from "../../domain/clock";
import { contextOf } from "../../domain/context";
import { listWaiting } from "../../domain/desk/waiting";
import { retryFlight } from "../../domain/flights/hand-back";
import { launchFlight } from "../../domain/flights/launch";
import { settledStatus, until } from "../../test/fixtures/team";
import { makeHuman } from "../../test/helpers";
import { createScratchRepo, DEMO_GOAL } from "../demo/scratch-repo";
import { reviewerScript } from "./scripts";
import { ensureTeam } from "./team";
import { runTeamWorker } from "./worker";

const emptyCoder = () => [{ toolCalls: [{ name: "done", arguments: { summary: "Done.", evidence: [] } }] }];

it("a coder gives a thrice-rejected task up: it is not held, the goal waits for its human with the reason, and Retry takes it up again", { timeout: 120_000 }, async () => {
  const db = getDb();
  await ensureTeam(db, systemClock);
  const human = await makeHuman();
  const repo = createScratchRepo(mkdtempSync(join(tmpdir(), "quorum-give-up-")));
  const { flight, goalTask } = await launchFlight(db, human, { goal: DEMO_GOAL, repo, mode: "scripted" }, systemClock);
  const controller = new AbortController();
  const worker = runTeamWorker(contextOf(getConnection()), {
    roles: ["orchestrator", "coder", "reviewer", "tester"],
    model: null,
    signal: controller.signal,
    log: () => {},
    scripts: { coder: emptyCoder, reviewer: (input) => reviewerScript(input.diff ?? "", input.evidence ?? "") },
  });
  try {
    expect(await until("the goal to come back", () => settledStatus(flight.id))).toBe("red");
    const [subtask] = await db.select({ id: flightTasks.taskId }).from(flightTasks).where(eq(flightTasks.flightId, flight.id));
    const [row] = await db.select().from(tasks).where(eq(tasks.id, subtask.id));
    expect(row).toMatchObject({ status: "ready", ownerId: null, leaseExpiresAt: null });
    const given = await db
      .select()
      .from(events)
      .where(and(eq(events.taskId, subtask.id), inArray(events.kind, ["ReworkAbandoned", "TaskReleased"])))
      .orderBy(asc(events.id));
    expect(given.map((e) => e.kind)).toEqual(["ReworkAbandoned", "TaskReleased"]);
    expect(given[1].data).toMatchObject({ outcome: "rework_abandoned", replan: true, told: false });

    const waiting = await listWaiting(db, human);
    const handback = waiting.items.find((i) => i.kind === "handback");
    expect(handback).toMatchObject({ taskId: goalTask.id, actions: ["retry", "scripted", "cancel"] });
    expect(handback?.kind === "handback" && handback.reason).toBe(
      `task #${row.number} was given up by its coder (rejected 3 times in review; the last review said: The diff is empty: nothing was changed.), and the scripted team cannot re-plan`,
    );

    // The human retries: the flight works again and a coder takes the task up afresh.
    const retried = await retryFlight(db, human, flight.id, { mode: "scripted" }, systemClock);
    expect(retried.status).toBe("working");
    const claimedAgain = await until("the task to be claimed again", async () => {
      const claims = await db
        .select()
        .from(events)
        .where(and(eq(events.taskId, subtask.id), eq(events.kind, "TaskClaimed")))
        .orderBy(asc(events.id));
      return claims.find((c) => c.id > given[1].id) ?? null;
    });
    expect(claimedAgain.id).toBeGreaterThan(given[1].id);
  } finally {
    controller.abort();
    await worker;
  }
});

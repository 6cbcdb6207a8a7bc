// A flight longer than a lease reaches its human (issue 42): with 6-second leases and coders whose model takes
// 14 seconds to answer, the sweepers running as the app runs them, nobody works on the goal while the coders
// do — and still its lease never lapses, its holder is never called stalled, and the green flight's goal
// goes to review.
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "../../db/client";
import { events, tasks } from "../../db/schema";
import { systemClock } from "../../domain/clock";
import { sweepStalledAgents } from "../../domain/roster/stall";
import { sweepExpiredLeases } from "../../domain/tasks/expire";
import { fly, liveModel, stopModelServers } from "../../test/fixtures/flying";
import { acceptingReviewer, twoFailuresRepo } from "../../test/fixtures/repos";

// domain/config.ts reads the lease once, on first use: set before any test runs (each file loads its modules afresh).
vi.stubEnv("QUORUM_LEASE_SECONDS", "6");
afterAll(() => void vi.unstubAllEnvs());
afterEach(stopModelServers);

/** The app's sweepers, every half second, until stopped. */
function sweeping() {
  let running = true;
  const done = (async () => {
    while (running) {
      await sweepExpiredLeases(getDb(), systemClock);
      await sweepStalledAgents(getDb(), systemClock);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  })();
  return async () => {
    running = false;
    await done;
  };
}

describe("a flight longer than its goal's lease", () => {
  it("keeps its goal held while the coders work, and the goal reaches review", async () => {
    const fixture = twoFailuresRepo();
    // Each coder's first answer takes 14 s: more than two leases.
    const slow = fixture.coder.map((c) => ({ ...c, runs: c.runs.map((run) => run.map((entry, i) => (i === 0 ? { ...entry, delayMs: 14_000 } : entry))) }));
    const model = await liveModel({ orchestrator: fixture.orchestrator, coder: slow, reviewer: acceptingReviewer }, "openai");
    const stopSweeping = sweeping();
    try {
      const { flight, goalTask } = await fly(fixture.repo, fixture.goal, model);
      expect(flight.status).toBe("green");
      const [goal] = await getDb().select().from(tasks).where(eq(tasks.id, goalTask.id));
      expect(goal.status).toBe("review");
      const lapses = await getDb()
        .select({ kind: events.kind })
        .from(events)
        .where(and(eq(events.taskId, goalTask.id), inArray(events.kind, ["LeaseExpired", "AgentStalled"])));
      expect(lapses).toEqual([]);
      const renewals = await getDb()
        .select({ kind: events.kind })
        .from(events)
        .where(and(eq(events.taskId, goalTask.id), eq(events.kind, "LeaseRenewed")));
      expect(renewals.length).toBeGreaterThan(2);
    } finally {
      await stopSweeping();
    }
  }, 180_000);
});

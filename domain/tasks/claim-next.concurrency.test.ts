// 16 workers looping on claim-next over 2,000 tasks: every task claimed exactly once, none lost.
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { events, tasks } from "../../db/schema";
import { connect } from "../../db/client";
import { manualClock } from "../clock";
import { makeAgent, makeHuman } from "../../test/helpers";
import { claimNextTask } from "./claim-next";

const WORKERS = 16;
const TASKS = 2_000;

// A pool with a connection per worker. The claims themselves run on the database's claims lane (db/client.ts),
// side by side and together in batches, while the test's own reads use the pool.
const connection = connect(process.env.DATABASE_URL!, { max: WORKERS + 4 });
afterAll(() => connection.close());

describe("claim-next under concurrency", () => {
  it(`gives each of ${TASKS} tasks to exactly one of ${WORKERS} workers`, async () => {
    const { db } = connection;
    const clock = manualClock(new Date());
    const lead = await makeHuman();
    // The board is filled in bulk: creating is not what this test measures, claiming is.
    for (let i = 0; i < TASKS; i += 500) {
      await db.insert(tasks).values(
        Array.from({ length: Math.min(500, TASKS - i) }, (_, j) => ({
          title: `task ${i + j}`,
          acceptanceCriteria: "it is claimed once",
          approverId: lead.id,
          createdBy: lead.id,
        })),
      );
    }
    const workers = await Promise.all(Array.from({ length: WORKERS }, () => makeAgent()));

    const claimedBy = new Map<string, string[]>();
    const perWorker = await Promise.all(
      workers.map(async (worker) => {
        let count = 0;
        for (let task = await claimNextTask(db, worker, clock); task; task = await claimNextTask(db, worker, clock)) {
          claimedBy.set(task.id, [...(claimedBy.get(task.id) ?? []), worker.id]);
          expect(task).toMatchObject({ ownerId: worker.id, fence: 1, status: "in_progress" });
          count++;
        }
        return count;
      }),
    );

    expect(claimedBy.size).toBe(TASKS);
    expect([...claimedBy.values()].every((owners) => owners.length === 1)).toBe(true);
    expect(perWorker.reduce((a, b) => a + b, 0)).toBe(TASKS);
    // Every worker got a share: the claims ran side by side, not one worker draining the queue.
    expect(perWorker.filter((n) => n > 0).length).toBeGreaterThan(WORKERS / 2);
    const ids = [...claimedBy.keys()];
    const [{ ready }] = await db.select({ ready: sql<number>`count(*)::int` }).from(tasks).where(eq(tasks.status, "ready"));
    expect(ready).toBe(0);
    const [{ claims }] = await db
      .select({ claims: sql<number>`count(*)::int` })
      .from(events)
      .where(sql`${events.kind} = 'TaskClaimed' and ${inArray(events.taskId, ids)}`);
    expect(claims).toBe(TASKS);
    const owners = await db.select({ id: tasks.id, ownerId: tasks.ownerId, fence: tasks.fence }).from(tasks).where(inArray(tasks.id, ids));
    expect(owners.every((t) => t.fence === 1 && claimedBy.get(t.id)![0] === t.ownerId)).toBe(true);
  }, 240_000);
});

// The hot lane (db/client.ts): claim-next and posts keep to a few connections of their own, whatever
// the pool's size and however many callers, and closing the database ends those connections too.
import { afterAll, describe, expect, it } from "vitest";
import { connect, type Connection, getConnection, getDb } from "../db/client";
import { tasks } from "../db/schema";
import { makeAgent, makeHuman, uniqueName } from "../test/helpers";
import { systemClock } from "./clock";
import { postMessage } from "./relay/post-message";
import { createRoom } from "./rooms/rooms";
import { claimNextTask } from "./tasks/claim-next";

const WORKERS = 16;
const TASKS = 64;

const opened: Connection[] = [];
afterAll(() => Promise.all(opened.map((c) => c.close())));

/** This test database's backends per application name (each test file has a database of its own). */
async function backends(): Promise<Record<string, number>> {
  const rows = await getConnection().sql<{ name: string; n: number }[]>`
    select application_name as name, count(*)::int as n from pg_stat_activity
    where datname = current_database() and pid <> pg_backend_pid() group by application_name`;
  return Object.fromEntries(rows.map((r) => [r.name, r.n]));
}

describe("the hot lane", () => {
  it(`carries ${WORKERS} workers' claims and their posts on at most 2 connections (its default size), none of the pool's`, async () => {
    const name = uniqueName("lane-test");
    const connection = connect(process.env.DATABASE_URL!, { max: 10, name });
    opened.push(connection);
    const lead = await makeHuman();
    await getDb()
      .insert(tasks)
      .values(Array.from({ length: TASKS }, (_, i) => ({ title: `lane ${i}`, acceptanceCriteria: "claimed once", approverId: lead.id, createdBy: lead.id })));
    const workers = await Promise.all(Array.from({ length: WORKERS }, () => makeAgent()));
    // A room each: one room's gates (freshness, the two-tier floor) would refuse most of 16 agents' posts.
    const rooms = await Promise.all(workers.map(async () => (await createRoom(getDb(), lead, { name: uniqueName("lane-room") }, systemClock)).name));

    const claimed = await Promise.all(
      workers.map(async (worker, i) => {
        let count = 0;
        while (await claimNextTask(connection.db, worker, systemClock)) count++;
        await postMessage(connection.db, worker, rooms[i], { body: `${worker.name} took ${count}` }, systemClock);
        return count;
      }),
    );

    expect(claimed.reduce((a, b) => a + b, 0)).toBe(TASKS);
    const seen = await backends();
    expect(seen[`${name} hot lane`]).toBeGreaterThanOrEqual(1);
    expect(seen[`${name} hot lane`]).toBeLessThanOrEqual(2);
    expect(seen[name]).toBeUndefined();
  });

  it("is never larger than the pool, and closing the database ends its connections", async () => {
    const name = uniqueName("lane-test");
    const connection = connect(process.env.DATABASE_URL!, { max: 1, name });
    const lead = await makeHuman();
    await getDb()
      .insert(tasks)
      .values(Array.from({ length: 8 }, (_, i) => ({ title: `small ${i}`, acceptanceCriteria: "claimed once", approverId: lead.id, createdBy: lead.id })));
    const workers = await Promise.all(Array.from({ length: 4 }, () => makeAgent()));
    await Promise.all(workers.map((worker) => claimNextTask(connection.db, worker, systemClock)));
    expect((await backends())[`${name} hot lane`]).toBe(1);

    await connection.close();
    // A backend leaves pg_stat_activity a moment after its client hangs up.
    let left = await backends();
    for (let i = 0; i < 50 && left[`${name} hot lane`]; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      left = await backends();
    }
    expect(left[`${name} hot lane`]).toBeUndefined();
  });
});

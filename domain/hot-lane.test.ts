// The hot lanes (db/client.ts): claim-next and posts each keep to a few connections of their own, whatever
// the pool's size and however many callers, and closing the database ends those connections too.
import { afterAll, describe, expect, it, vi } from "vitest";
import { connect, type Connection, getConnection, getDb, hotLaneOf } from "../db/client";
import { tasks } from "../db/schema";
import { makeAgent, makeHuman, uniqueName } from "../test/helpers";
import { systemClock } from "./clock";
import type { Principal } from "./principal";
import { postMessage } from "./rooms/post-message";
import { createRoom } from "./rooms/rooms";
import { claimNextTask } from "./tasks/claim-next";

const opened: Connection[] = [];
afterAll(() => Promise.all(opened.map((c) => c.close())));

/** This test database's backends per application name (each test file has a database of its own). */
async function backends(): Promise<Record<string, number>> {
  const rows = await getConnection().sql<{ name: string; n: number }[]>`
    select application_name as name, count(*)::int as n from pg_stat_activity
    where datname = current_database() and pid <> pg_backend_pid() group by application_name`;
  return Object.fromEntries(rows.map((r) => [r.name, r.n]));
}

/** `workers` agents claim until the board is empty, then each posts in a room of its own (one room's
 * gates, freshness and the two-tier floor, would refuse most of many agents' posts). */
async function claimAndPost(connection: Connection, lead: Principal, taskCount: number, workerCount: number): Promise<number> {
  await getDb()
    .insert(tasks)
    .values(Array.from({ length: taskCount }, (_, i) => ({ title: `lane ${i}`, acceptanceCriteria: "claimed once", approverId: lead.id, createdBy: lead.id })));
  const workers = await Promise.all(Array.from({ length: workerCount }, () => makeAgent()));
  const rooms = await Promise.all(workers.map(async () => (await createRoom(getDb(), lead, { name: uniqueName("lane-room") }, systemClock)).name));
  const claimed = await Promise.all(
    workers.map(async (worker, i) => {
      let count = 0;
      while (await claimNextTask(connection.db, worker, systemClock)) count++;
      await postMessage(connection.db, worker, rooms[i], { body: `${worker.name} took ${count}` }, systemClock);
      return count;
    }),
  );
  return claimed.reduce((a, b) => a + b, 0);
}

describe("the hot lanes", () => {
  it("carry 16 workers' claims on at most 2 connections and their posts on at most 4, none of the pool's", async () => {
    const name = uniqueName("lane-test");
    const connection = connect(process.env.DATABASE_URL!, { max: 10, name });
    opened.push(connection);
    const lead = await makeHuman();

    expect(await claimAndPost(connection, lead, 64, 16)).toBe(64);

    const seen = await backends();
    expect(seen[`${name} claims lane`]).toBeGreaterThanOrEqual(1);
    expect(seen[`${name} claims lane`]).toBeLessThanOrEqual(2);
    expect(seen[`${name} posts lane`]).toBeGreaterThanOrEqual(1);
    expect(seen[`${name} posts lane`]).toBeLessThanOrEqual(4);
    expect(seen[name]).toBeUndefined();
  });

  it("are found from another copy of db/client, as Next's bundle loads one for the process's database", async () => {
    const connection = connect(process.env.DATABASE_URL!, { max: 2, name: uniqueName("lane-test") });
    opened.push(connection);
    vi.resetModules();
    const copy = await import("../db/client");
    expect(copy.hotLaneOf).not.toBe(hotLaneOf);
    expect(copy.hotLaneOf(connection.db, "claims")).toBe(hotLaneOf(connection.db, "claims"));
    expect(copy.hotLaneOf(connection.db, "posts")).toBe(hotLaneOf(connection.db, "posts"));
  });

  it("are never larger than the pool, and closing the database ends their connections", async () => {
    const name = uniqueName("lane-test");
    const connection = connect(process.env.DATABASE_URL!, { max: 1, name });
    const lead = await makeHuman();

    expect(await claimAndPost(connection, lead, 8, 4)).toBe(8);
    const seen = await backends();
    expect([seen[`${name} claims lane`], seen[`${name} posts lane`]]).toEqual([1, 1]);

    await connection.close();
    // A backend leaves pg_stat_activity a moment after its client hangs up.
    const mine = (all: Record<string, number>) => Object.keys(all).filter((app) => app.startsWith(name));
    let left = mine(await backends());
    for (let i = 0; i < 50 && left.length > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      left = mine(await backends());
    }
    expect(left).toEqual([]);
  });
});

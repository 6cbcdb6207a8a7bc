// Dependency edges: only between confirmed commitments, cycle-checked with the cycle's path, also under concurrency.
import { describe, expect, it } from "vitest";
import { getConnection, getDb } from "../../db/client";
import { systemClock } from "../clock";
const dependencyRoute = apiHandler("POST", "/api/commitments/[id]/dependencies");
import { listJournal } from "../journal/list";
import type { Principal } from "../principal";
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { addDependency } from "./add-dependency";
import { confirmCommitment } from "./confirm";
import { proposeCommitment } from "./propose";
import { apiHandler } from "../../test/api";

async function confirmed(owner: Principal, what: string): Promise<string> {
  const c = await proposeCommitment(getDb(), owner, { what }, systemClock);
  await confirmCommitment(getDb(), owner, c.id, systemClock);
  return c.id;
}

async function edgeCount(ids: string[]): Promise<number> {
  const [row] = await getConnection().sql`select count(*)::int as n from commitment_dependencies where blocked_id = any(${ids}) or blocker_id = any(${ids})`;
  return row.n;
}

describe("dependencies", () => {
  it("adds an edge between confirmed commitments, journalled, and shows it on both ends", async () => {
    const [a, b] = await Promise.all([makeAgent(), makeAgent()]);
    const blocked = await confirmed(a, "ship the release");
    const blocker = await confirmed(b, "fix the parser");
    const res = await call(dependencyRoute, "/x", { key: a.key, params: { id: blocked }, body: { blockerId: blocker } });
    expect(res.status).toBe(201);
    expect(res.body.blockers).toEqual([expect.objectContaining({ id: blocker, what: "fix the parser" })]);
    const again = await call(dependencyRoute, "/x", { key: a.key, params: { id: blocked }, body: { blockerId: blocker } });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe("duplicate");
    const event = (await listJournal(getDb(), { kind: "DependencyAdded", actor: a.id })).items[0];
    expect(event.data).toMatchObject({ blockedId: blocked, blockerId: blocker });
  });

  it("lets only the waiting commitment's owner or a human add its edges, and only once both are confirmed", async () => {
    const [a, b] = await Promise.all([makeAgent(), makeAgent()]);
    const human = await makeHuman();
    const blocked = await confirmed(a, "deploy");
    const blocker = await confirmed(b, "migrate");
    const byOther = await call(dependencyRoute, "/x", { key: b.key, params: { id: blocked }, body: { blockerId: blocker } });
    expect(byOther.status).toBe(403);
    const candidate = await proposeCommitment(getDb(), b, { what: "maybe later" }, systemClock);
    const onCandidate = await call(dependencyRoute, "/x", { key: a.key, params: { id: blocked }, body: { blockerId: candidate.id } });
    expect(onCandidate.status).toBe(409);
    expect(onCandidate.body).toMatchObject({ error: "wrong_status", status: "candidate" });
    const bad = await call(dependencyRoute, "/x", { key: a.key, params: { id: blocked }, body: { blockerId: "C-1" } });
    expect(bad.status).toBe(400);
    expect(await edgeCount([blocked])).toBe(0);
    const byHuman = await call(dependencyRoute, "/x", { cookie: human.cookie, params: { id: blocked }, body: { blockerId: blocker } });
    expect(byHuman.status).toBe(201);
  });

  it("refuses an edge that closes a cycle with 409 and the cycle's path", async () => {
    const agent = await makeAgent();
    const [x, y, z] = [await confirmed(agent, "x"), await confirmed(agent, "y"), await confirmed(agent, "z")];
    await addDependency(getDb(), agent, x, { blockerId: y }, systemClock); // x waits on y
    await addDependency(getDb(), agent, y, { blockerId: z }, systemClock); // y waits on z
    const res = await call(dependencyRoute, "/x", { key: agent.key, params: { id: z }, body: { blockerId: x } });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: "cycle", path: [z, x, y, z] });
    const self = await call(dependencyRoute, "/x", { key: agent.key, params: { id: x }, body: { blockerId: x } });
    expect(self.body).toMatchObject({ error: "cycle", path: [x, x] });
    expect(await edgeCount([x, y, z])).toBe(2);
  });

  it("refuses a cycle in the database too, for a writer that skips domain/", async () => {
    const agent = await makeAgent();
    const [x, y] = [await confirmed(agent, "x"), await confirmed(agent, "y")];
    await addDependency(getDb(), agent, x, { blockerId: y }, systemClock);
    const { sql } = getConnection();
    await expect(sql`insert into commitment_dependencies (blocked_id, blocker_id, created_by, created_at) values (${y}, ${x}, ${agent.id}, now())`).rejects.toThrow(/cycle/);
  });

  it("serialises edge insertion: an edge waits while another transaction holds the graph, then sees its edge", async () => {
    const agent = await makeAgent();
    const [x, y, z] = [await confirmed(agent, "x"), await confirmed(agent, "y"), await confirmed(agent, "z")];
    await addDependency(getDb(), agent, x, { blockerId: y }, systemClock);
    const other = await getConnection().sql.reserve();
    await other`begin`;
    await other`select quorum_lock_commitment_graph()`;
    await other`insert into commitment_dependencies (blocked_id, blocker_id, created_by, created_at) values (${y}, ${z}, ${agent.id}, now())`;
    // Not yet committed: y waits on z. Together with x ← y, the edge z ← x would close x ← y ← z ← x.
    const pending = addDependency(getDb(), agent, z, { blockerId: x }, systemClock).then(
      () => "landed",
      (error) => error,
    );
    await expect.poll(async () => (await getConnection().sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`)[0].n).toBeGreaterThan(0);
    await other`commit`;
    other.release();
    const outcome = await pending;
    expect(outcome).toMatchObject({ code: "cycle", extra: { path: [z, x, y, z] } });
    expect(await edgeCount([x, y, z])).toBe(2);
  });

  it("never lets two concurrent edges that together close a cycle both land", async () => {
    const agent = await makeAgent();
    // Squares a ← b, c ← d, then b ← c and d ← a race: either alone is fine, both close a ← b ← c ← d ← a.
    // The racing edges share no commitment, so no row lock orders them; only the graph lock does.
    const squares = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const [a, b, c, d] = await Promise.all(["a", "b", "c", "d"].map((n) => confirmed(agent, `${n}${i}`)));
        await addDependency(getDb(), agent, a, { blockerId: b }, systemClock);
        await addDependency(getDb(), agent, c, { blockerId: d }, systemClock);
        return [a, b, c, d];
      }),
    );
    const races = await Promise.all(
      squares.map(([a, b, c, d]) =>
        Promise.allSettled([addDependency(getDb(), agent, b, { blockerId: c }, systemClock), addDependency(getDb(), agent, d, { blockerId: a }, systemClock)]),
      ),
    );
    for (const [i, results] of races.entries()) {
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      expect((results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason.code).toBe("cycle");
      expect(await edgeCount(squares[i])).toBe(3);
    }
  });
});

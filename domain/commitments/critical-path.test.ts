// The critical path on known graphs, and the graph the Commitments page draws.
import { describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { manualClock } from "../clock";
const graphRoute = apiHandler("GET", "/api/commitments/graph");
import type { Principal } from "../principal";
import { call, makeAgent } from "../../test/helpers";
import { addDependency } from "./add-dependency";
import { confirmCommitment } from "./confirm";
import { criticalPath, type PathNode } from "./critical-path";
import { fulfilCommitment } from "./fulfil";
import { proposeCommitment } from "./propose";
import { apiHandler } from "../../test/api";

const day = (n: number) => new Date(Date.UTC(2026, 0, n));
const node = (id: string, number: number, due: number | null): PathNode => ({ id, number, dueAt: due === null ? null : day(due) });
const edge = (blockedId: string, blockerId: string) => ({ blockedId, blockerId });

describe("criticalPath", () => {
  // A → B → D, A → C → D (work order), E → F; G alone.
  const nodes = [node("A", 1, 1), node("B", 2, 2), node("C", 3, 3), node("D", 4, 4), node("E", 5, 1), node("F", 6, 5), node("G", 7, 9)];
  const edges = [edge("B", "A"), edge("C", "A"), edge("D", "B"), edge("D", "C"), edge("F", "E")];

  it("is the longest chain, blocker first; where equal chains merge, the blocker due first", () => {
    expect(criticalPath(nodes, edges)).toEqual(["A", "B", "D"]);
  });

  it("between equally long chains, takes the one that ends latest by due date", () => {
    const more = [...nodes, node("H", 8, 10)];
    expect(criticalPath(more, [...edges, edge("H", "F")])).toEqual(["E", "F", "H"]);
  });

  it("counts undated work as due last, and a single node is a path of one", () => {
    expect(criticalPath([node("X", 1, 3), node("Y", 2, null)], [])).toEqual(["Y"]);
    expect(criticalPath([], [])).toEqual([]);
  });

  it("ignores edges to nodes outside the graph (finished work)", () => {
    expect(
      criticalPath(
        nodes.filter((n) => n.id !== "A" && n.id !== "F"),
        edges,
      ),
    ).toEqual(["B", "D"]);
  });
});

describe("GET /api/commitments/graph", () => {
  it("returns confirmed commitments, their edges, overdue flags and the critical path", async () => {
    const clock = manualClock(new Date());
    const agent = await makeAgent();
    const make = async (what: string, dueInMinutes: number, by: Principal = agent) => {
      const c = await proposeCommitment(getDb(), by, { what, dueAt: new Date(clock.now().getTime() + dueInMinutes * 60_000).toISOString() }, clock);
      await confirmCommitment(getDb(), by, c.id, clock);
      return c.id;
    };
    const schema = await make("schema", 10);
    const api = await make("api", 60);
    const ui = await make("ui", 120);
    const docs = await make("docs", 30);
    await proposeCommitment(getDb(), agent, { what: "a candidate stays out" }, clock);
    await addDependency(getDb(), agent, api, { blockerId: schema }, clock);
    await addDependency(getDb(), agent, ui, { blockerId: api }, clock);
    await addDependency(getDb(), agent, docs, { blockerId: schema }, clock);
    clock.advance(11 * 60_000);
    const res = await call(graphRoute, "/api/commitments/graph", { key: agent.key });
    expect(res.status).toBe(200);
    const mine = (res.body.nodes as { id: string; what: string; overdue: boolean; status: string }[]).filter((n) => [schema, api, ui, docs].includes(n.id));
    expect(mine).toHaveLength(4);
    expect(res.body.nodes.some((n: { what: string }) => n.what === "a candidate stays out")).toBe(false);
    expect(res.body.criticalPath).toEqual([schema, api, ui]);
    expect(res.body.edges).toEqual(
      expect.arrayContaining([
        { blockedId: api, blockerId: schema },
        { blockedId: docs, blockerId: schema },
      ]),
    );
    // The HTTP route runs on the real clock: nothing is overdue yet there.
    expect(mine.every((n) => n.overdue === false)).toBe(true);

    await fulfilCommitment(getDb(), agent, schema, { reason: "migrated" }, clock);
    const after = await call(graphRoute, "/api/commitments/graph", { key: agent.key });
    expect(after.body.criticalPath).toEqual([api, ui]);
    expect(after.body.nodes.find((n: { id: string }) => n.id === schema)).toMatchObject({ status: "fulfilled" });
  });
});

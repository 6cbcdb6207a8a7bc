// A principal's colour follows its place in the order principals were created: a newcomer comes last, so
// registering one never moves anyone else's colour (it did when colours followed the list's order).
import { describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { makeAgent, makeHuman } from "../../test/helpers";
import { systemClock } from "../clock";
import { listPrincipals } from "../principals/list-principals";

const ordersOf = async () => new Map((await listPrincipals(getDb(), systemClock)).map((p) => [p.name, p.order]));

describe("the roster's order", () => {
  it("numbers everyone once, a team side by side, and keeps every number when others register", async () => {
    const human = await makeHuman("zed-human");
    for (const name of ["orchestrator", "reviewer", "tester", "coder", "coder-2"]) await makeAgent(name, name.replace(/-\d$/, ""));
    const before = await ordersOf();
    expect([...before.values()].sort((a, b) => a - b)).toEqual([...before.keys()].map((_, i) => i));
    // A team is created member by member: its five sit side by side in the palette, each its own colour.
    const team = ["orchestrator", "reviewer", "tester", "coder", "coder-2"].map((name) => before.get(name)!);
    expect(team).toEqual(team.map((_, i) => team[0] + i));
    expect(before.get(human.name)!).toBeLessThan(team[0]);

    // Names that sort first, an agent and a human: each comes last, and nobody else moves.
    await makeAgent("aaa-outside");
    await makeHuman("aaa-person");
    const after = await ordersOf();
    for (const [name, order] of before) expect(after.get(name), name).toBe(order);
    expect(after.get("aaa-outside")).toBe(before.size);
    expect(after.get("aaa-person")).toBe(before.size + 1);
    // Asked for agents only, the numbers are the same.
    for (const agent of await listPrincipals(getDb(), systemClock, "agent")) expect(agent.order).toBe(after.get(agent.name));
  });
});

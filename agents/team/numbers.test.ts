// One definition of the numbers people read (DESIGN §11, "What the numbers mean"): the hub's allowance is the
// open flights' — two flights add theirs, closing one takes its away, and an agent's own allowance never joins
// it; an agent's spend is all its runs'; Quorum's own principal, which holds the flights' budgets, is no agent
// row; and what scripted runs estimate is counted apart as simulated.
import { describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { readBill } from "../../domain/bill/read-bill";
import { manualClock } from "../../domain/clock";
import { closeFlight } from "../../domain/flights/end";
import { launchFlight } from "../../domain/flights/launch";
import { readFlight } from "../../domain/flights/view";
import { handBackByHand } from "../../test/fixtures/accepted-flight";
import { fixtureRepo } from "../../test/fixtures/repos";
import { makeHuman } from "../../test/helpers";
import { scriptedClient, type ScriptEntry } from "../model/scripted";
import { startRun } from "../run";
import { ensureTeam } from "./team";

const clock = manualClock();
const prices = { prices: { "model-a": { input: 1, output: 2 } }, currency: "USD", problem: null };
const done = (usage?: ScriptEntry["usage"], model?: string): ScriptEntry => ({
  toolCalls: [{ name: "done", arguments: { summary: "ok", evidence: ["ok"] } }],
  ...(usage ? { usage } : {}),
  ...(model ? { model } : {}),
});

describe("the numbers, one definition everywhere", () => {
  it("counts the open flights' allowance, an agent's whole spend, and simulated tokens apart", async () => {
    const db = getDb();
    const human = await makeHuman();
    const team = await ensureTeam(db, clock, 1);
    const coder = team.coders[0].principal;
    const before = await readBill(db, prices);
    expect(before.hub).toEqual({ openFlights: 0, allowance: 0, spent: 0, left: 0 });
    // The team's own allowances (for work outside flights) are the agents', not the hub's.
    expect(before.agents.find((a) => a.agentId === coder.id)?.allowance).toBeGreaterThan(0);

    const repo = () => fixtureRepo("numbers", { "a.js": "1\n", "package.json": '{"scripts":{"test":"true"}}\n' });
    const first = await launchFlight(db, human, { repo: repo(), goal: "Fix a", allowance: 50_000, mode: "scripted" }, clock);
    const second = await launchFlight(db, human, { repo: repo(), goal: "Fix b", allowance: 70_000, mode: "scripted" }, clock);
    // A model's run on the first flight (1,200 tokens) and a scripted one on the second (estimated: simulated).
    const run = (flight: typeof first, step: ScriptEntry) =>
      startRun(db, {
        agent: coder,
        task: "t",
        system: "s",
        client: scriptedClient([step]),
        tools: [],
        root: repo(),
        budgetId: flight.flight.budgetId,
        taskId: flight.goalTask.id,
        clock,
      });
    await run(first, done({ inputTokens: 1_000, outputTokens: 200 }, "model-a"));
    await run(second, done());

    const both = await readBill(db, prices);
    const simulated = both.total.simulatedTokens;
    expect(simulated).toBeGreaterThan(0);
    expect(both.total.tokens).toBe(1_200 + simulated);
    expect(both.models.find((m) => m.model === "scripted")?.tokens).toBe(simulated);
    expect(both.hub).toEqual({ openFlights: 2, allowance: 120_000, spent: 1_200 + simulated, left: 120_000 - 1_200 - simulated });
    // Each flight's own line agrees with its share of the hub's.
    const [one, two] = [await readFlight(db, first.flight.id), await readFlight(db, second.flight.id)];
    expect(one.budget?.spent).toBe(1_200);
    expect(two.budget?.spent).toBe(simulated);
    // The coder spent all of it; none came out of its own allowance, which stays whole.
    const coderLine = both.agents.find((a) => a.agentId === coder.id)!;
    expect(coderLine).toMatchObject({ tokens: 1_200 + simulated, simulatedTokens: simulated, budgetSpent: 0 });
    expect(coderLine.left).toBe(coderLine.allowance);
    // The flights' budgets belong to Quorum's own principal: they are flight lines, not an agent row.
    expect(both.agents.map((a) => a.agentName)).not.toContain("quorum");

    // A flight that ends leaves the hub's allowance: it does not grow with every flight ever flown.
    await handBackByHand(db, second.flight, coder);
    await closeFlight(db, human, second.flight.id, { reason: "not needed after all" }, clock);
    const after = await readBill(db, prices);
    expect(after.hub).toEqual({ openFlights: 1, allowance: 50_000, spent: 1_200, left: 48_800 });
    expect(after.total.tokens).toBe(both.total.tokens);
  });
});

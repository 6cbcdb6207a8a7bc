// The bill equals an independent sum of the journal's debits, over random journals with sub-budgets,
// whether folded at once, refreshed in random slices, rebuilt, or read past an unsettled transaction.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
const billRoute = apiHandler("GET", "/api/bill");
const runsRoute = apiHandler("GET", "/api/bill/runs");
const seriesRoute = apiHandler("GET", "/api/bill/series");
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { systemClock } from "../clock";
import { createTask } from "../tasks/create";
import { appendLooseEvent, type LooseEvent } from "../../test/fixtures/journal";
import { readBill } from "./read-bill";
import { listBillRuns, listBillTasks } from "./recent";
import { refreshBillSnapshot, resetBillSnapshot } from "./snapshot";
import { cachedRateOf, type PriceConfig } from "./prices";
import { apiHandler } from "../../test/api";

const CONFIG: PriceConfig = { currency: "USD", problem: null, prices: { m1: { input: 3, output: 15, cachedInput: 0.3 }, "*": { input: 1, output: 2 } } };
const MODELS = ["m1", "m2", "m3"];

/** A seeded generator, so a failure names the journal that caused it. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(xs: T[]) => xs[Math.floor(next() * xs.length)] };
}

interface Expected {
  debits: { actor: string; run: string; task: string | null; model: string; input: number; output: number; cached: number; estimated: boolean; budgetIds: string[] }[];
  budgets: Map<string, { parent: string | null; owner: string; allowance: number }>;
  runs: Map<string, { agent: string; task: string | null; status: string }>;
}

const expected: Expected = { debits: [], budgets: new Map(), runs: new Map() };
const agents = Array.from({ length: 4 }, () => randomUUID());
const taskIds = Array.from({ length: 5 }, () => randomUUID());

function chainOf(budgetId: string): string[] {
  const chain: string[] = [];
  for (let id: string | null = budgetId; id; id = expected.budgets.get(id)!.parent) chain.push(id);
  return chain;
}

/** Random journal events (and the expected model updated in step), in journal order. */
function randomEvents(seed: number, count: number): LooseEvent[] {
  const r = rng(seed);
  const out: LooseEvent[] = [];
  const live: string[] = [...expected.runs].filter(([, run]) => run.status === "running").map(([id]) => id);
  while (out.length < count) {
    const roll = r.next();
    const budgetIds = [...expected.budgets.keys()];
    if (roll < 0.08 || budgetIds.length === 0) {
      const parent = budgetIds.length && r.next() < 0.6 ? r.pick(budgetIds) : null;
      const owner = parent && r.next() < 0.5 ? expected.budgets.get(parent)!.owner : r.pick(agents);
      const budgetId = randomUUID();
      const allowance = 500 + r.int(5000);
      expected.budgets.set(budgetId, { parent, owner, allowance });
      out.push({ kind: "BudgetCreated", data: { budgetId, ownerId: owner, parentId: parent, label: `b${budgetIds.length}`, allowance } });
    } else if (roll < 0.12) {
      const budgetId = r.pick(budgetIds);
      const allowance = r.int(8000);
      const previous = expected.budgets.get(budgetId)!.allowance;
      expected.budgets.get(budgetId)!.allowance = allowance;
      out.push({ kind: "BudgetAllowanceChanged", data: { budgetId, allowance, previous } });
    } else if (roll < 0.22 || live.length === 0) {
      const runId = `run_${randomUUID().slice(0, 16)}`;
      const agent = r.pick(agents);
      const task = r.next() < 0.7 ? r.pick(taskIds) : null;
      expected.runs.set(runId, { agent, task, status: "running" });
      live.push(runId);
      out.push({ kind: "RunStarted", actor: agent, runId, taskId: task, turn: 0, data: { budgetIds: [] } });
    } else if (roll < 0.3) {
      const runId = live.splice(r.int(live.length), 1)[0];
      const run = expected.runs.get(runId)!;
      const status = r.pick(["done", "halted", "stopped", "inconclusive"]);
      run.status = status;
      const kind = status === "halted" ? "BudgetExhausted" : status === "stopped" ? "RunStopped" : "AgentFinished";
      out.push({
        kind,
        actor: run.agent,
        runId,
        taskId: run.task,
        data: { result: { status, budgetId: "x", allowance: 0, budgetSpent: 0, turns: 1, spent: 0, summary: "s", evidence: [], reason: "r" } },
      });
    } else {
      const runId = r.pick(live);
      const run = expected.runs.get(runId)!;
      const input = r.int(2000);
      const output = r.int(500);
      const cached = r.int(input + 1);
      const model = r.pick(MODELS);
      const chain = r.next() < 0.85 ? chainOf(r.pick(budgetIds)) : [];
      const estimated = r.next() < 0.2;
      expected.debits.push({ actor: run.agent, run: runId, task: run.task, model, input, output, cached, estimated, budgetIds: chain });
      out.push({
        kind: "BudgetDebited",
        actor: run.agent,
        runId,
        taskId: run.task,
        turn: 1,
        data: { amount: input + output, inputTokens: input, outputTokens: output, cachedTokens: cached, estimated, model, budgetIds: chain },
      });
    }
  }
  return out;
}

const price = (model: string) => CONFIG.prices[model] ?? CONFIG.prices["*"];
const costOfDebit = (d: Expected["debits"][number]) => {
  const p = price(d.model);
  return ((d.input - d.cached) * p.input + d.cached * cachedRateOf(p, d.model) + d.output * p.output) / 1e6;
};
const sum = <T>(xs: T[], f: (x: T) => number) => xs.reduce((n, x) => n + f(x), 0);

async function allPages<T>(fetch: (before?: number) => Promise<{ items: T[]; next?: number }>): Promise<T[]> {
  const items: T[] = [];
  let before: number | undefined;
  do {
    const page = await fetch(before);
    items.push(...page.items);
    before = page.next;
  } while (before !== undefined);
  return items;
}

async function expectBillMatches(): Promise<void> {
  const db = getDb();
  const view = await readBill(db, CONFIG);
  const { debits } = expected;
  expect(view.total.tokens).toBe(sum(debits, (d) => d.input + d.output));
  expect(view.total.inputTokens).toBe(sum(debits, (d) => d.input));
  expect(view.total.cachedTokens).toBe(sum(debits, (d) => d.cached));
  expect(view.total.calls).toBe(debits.length);
  expect(view.total.estimatedCalls).toBe(debits.filter((d) => d.estimated).length);
  expect(view.total.cost).toBeCloseTo(sum(debits, costOfDebit), 9);
  // The cached tokens' share of the cost, at each model's cached rate.
  expect(view.total.cachedCost).toBeCloseTo(
    sum(debits, (d) => (d.cached * cachedRateOf(price(d.model), d.model)) / 1e6),
    9,
  );
  for (const agent of agents) {
    const mine = debits.filter((d) => d.actor === agent);
    const line = view.agents.find((a) => a.agentId === agent);
    expect(line?.tokens ?? 0).toBe(sum(mine, (d) => d.input + d.output));
    expect(line?.cost ?? 0).toBeCloseTo(sum(mine, costOfDebit), 9);
  }
  for (const model of MODELS) {
    const line = view.models.find((m) => m.model === model);
    expect(line?.tokens ?? 0).toBe(
      sum(
        debits.filter((d) => d.model === model),
        (d) => d.input + d.output,
      ),
    );
  }
  expect(view.budgets).toHaveLength(expected.budgets.size);
  for (const [budgetId, b] of expected.budgets) {
    const spent = sum(
      debits.filter((d) => d.budgetIds.includes(budgetId)),
      (d) => d.input + d.output,
    );
    expect(view.budgets.find((x) => x.budgetId === budgetId)).toMatchObject({
      parentId: b.parent,
      ownerId: b.owner,
      allowance: b.allowance,
      spent,
      left: b.allowance - spent,
      exhausted: spent >= b.allowance,
    });
  }
  const runs = await allPages((before) => listBillRuns(db, CONFIG.prices, { before, limit: 7 }));
  expect(new Set(runs.map((r) => r.runId)).size).toBe(runs.length);
  expect(runs.map((r) => r.runId).sort()).toEqual([...expected.runs.keys()].sort());
  // Each run says when it started (its RunStarted's time), whether the snapshot or the unsettled tail holds it.
  const starts = await db.execute<{ run_id: string; t: Date }>(sql`select run_id, t from events where kind = 'RunStarted'`);
  const startOf = new Map([...starts].map((s) => [s.run_id, new Date(s.t).toISOString()]));
  expect(startOf.size).toBe(expected.runs.size);
  for (const run of runs) {
    const want = expected.runs.get(run.runId)!;
    expect(run).toMatchObject({
      agentId: want.agent,
      taskId: want.task,
      startedAt: startOf.get(run.runId),
      status: want.status,
      tokens: sum(
        debits.filter((d) => d.run === run.runId),
        (d) => d.input + d.output,
      ),
    });
  }
  const tasks = await allPages((before) => listBillTasks(db, CONFIG.prices, { before, limit: 2 }));
  const spending = new Set(debits.map((d) => d.task).filter((t) => t !== null));
  expect(tasks.map((t) => t.taskId).sort()).toEqual([...spending].sort());
  for (const task of tasks)
    expect(task.tokens).toBe(
      sum(
        debits.filter((d) => d.task === task.taskId),
        (d) => d.input + d.output,
      ),
    );
}

describe("the bill", () => {
  it("equals an independent sum of the debits, refreshed in random slices, over random journals", async () => {
    const db = getDb();
    for (let seed = 1; seed <= 12; seed++) {
      const r = rng(seed * 7919);
      const events = randomEvents(seed, 30 + r.int(60));
      // Appended in random transactions (several events each), refreshed at random points.
      for (let i = 0; i < events.length; ) {
        const n = 1 + r.int(5);
        await db.transaction(async (tx) => {
          for (const e of events.slice(i, i + n)) await appendLooseEvent(tx, e);
        });
        i += n;
        if (r.next() < 0.3) await refreshBillSnapshot(db, 1 + r.int(20));
      }
      if (seed % 4 === 0) await resetBillSnapshot(db);
      await expectBillMatches();
    }
  });

  it("never folds past an open transaction: one that commits later with a smaller id is counted once", async () => {
    const db = getDb();
    const signal = () => {
      let open!: () => void;
      const promise = new Promise<void>((resolve) => (open = resolve));
      return { promise, open };
    };
    const [aHasXid, releaseA, bAppended, releaseB] = [signal(), signal(), signal(), signal()];
    const [eventA] = randomEvents(2001, 1);
    // A takes its transaction id first but appends last; B appends first (the smaller id) and commits last.
    const a = db.transaction(async (tx) => {
      await tx.execute(sql`select pg_current_xact_id()`);
      aHasXid.open();
      await releaseA.promise;
      await appendLooseEvent(tx, eventA);
    });
    await aHasXid.promise;
    const debitsBeforeB = expected.debits.length;
    const eventsB = randomEvents(2002, 3);
    const tokensB = sum(expected.debits.slice(debitsBeforeB), (d) => d.input + d.output);
    const b = db.transaction(async (tx) => {
      for (const e of eventsB) await appendLooseEvent(tx, e);
      bAppended.open();
      await releaseB.promise;
    });
    await bAppended.promise;
    releaseA.open();
    await a;
    const during = await readBill(db, CONFIG);
    expect(during.total.tokens).toBe(sum(expected.debits, (d) => d.input + d.output) - tokensB);
    releaseB.open();
    await b;
    await expectBillMatches();
  });

  it("serves the bill, its runs and its series over HTTP, refusing bad input with 400", async () => {
    const human = await makeHuman();
    const bill = await call(billRoute, "/api/bill?limit=5", { cookie: human.cookie });
    expect(bill.status).toBe(200);
    expect(bill.body).toMatchObject({ currency: expect.any(String), total: { tokens: expect.any(Number) }, runs: { items: expect.any(Array) } });
    expect((await call(billRoute, "/api/bill?limit=0", { cookie: human.cookie })).status).toBe(400);
    expect((await call(billRoute, "/api/bill")).status).toBe(401);
    const runs = await call(runsRoute, `/api/bill/runs?agent=${agents[0]}&limit=3`, { cookie: human.cookie });
    expect(runs.status).toBe(200);
    expect(runs.body.items.every((r: { agentId: string }) => r.agentId === agents[0])).toBe(true);
    const bad = await call(runsRoute, "/api/bill/runs?agent=nope", { cookie: human.cookie });
    expect(bad.status).toBe(400);
    expect(bad.body.issues.length).toBeGreaterThan(0);
    const series = await call(seriesRoute, `/api/bill/series?window=24h&since=${encodeURIComponent(new Date(Date.now() - 3600_000).toISOString())}`, { cookie: human.cookie });
    expect(series.status).toBe(200);
    const charted = series.body.points.reduce((n: number, p: { agents: Record<string, { tokens: number }> }) => n + Object.values(p.agents).reduce((m, a) => m + a.tokens, 0), 0);
    expect(charted).toBe(sum(expected.debits, (d) => d.input + d.output));
    expect(series.body.since.tokens).toBe(charted);
    const halted = [...expected.runs.values()].filter((r) => r.status === "halted");
    expect(series.body.exhaustions).toHaveLength(halted.length);
    expect(new Set(series.body.exhaustions.map((e: { agentId: string }) => e.agentId))).toEqual(new Set(halted.map((r) => r.agent)));
    expect((await call(seriesRoute, "/api/bill/series?window=2y", { cookie: human.cookie })).status).toBe(400);
  });

  it("names a run by its agent, its task's number and title and when it started, before and after the snapshot folds it", async () => {
    const human = await makeHuman();
    const coder = await makeAgent("coder-named");
    const task = await createTask(getDb(), human, { title: "Parse the config", acceptanceCriteria: "tests pass" }, systemClock);
    const runId = `run_${randomUUID().slice(0, 16)}`;
    const startedAt = new Date("2026-03-04T14:02:00.000Z");
    await appendLooseEvent(getDb(), { kind: "RunStarted", actor: coder.id, runId, taskId: task.id, turn: 0, data: { budgetIds: [] }, t: startedAt });
    const named = {
      runId,
      agentName: "coder-named",
      taskId: task.id,
      taskNumber: task.number,
      taskTitle: "Parse the config",
      startedAt: startedAt.toISOString(),
      status: "running",
    };
    const fromTail = await call(runsRoute, `/api/bill/runs?agent=${coder.id}`, { cookie: human.cookie });
    expect(fromTail.body.items).toEqual([expect.objectContaining(named)]);
    await refreshBillSnapshot(getDb());
    const fromSnapshot = await call(runsRoute, `/api/bill/runs?agent=${coder.id}`, { cookie: human.cookie });
    expect(fromSnapshot.body.items).toEqual([expect.objectContaining(named)]);
  });
});

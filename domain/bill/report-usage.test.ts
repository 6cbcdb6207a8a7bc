// Outside agents on the Bill: POST /api/usage and MCP's report_usage journal what an agent says a model call
// spent (UsageReported, self-reported); the bill folds it onto the agent's, the task's and the model's lines,
// marked so, through the snapshot and the unsettled tail alike; bad input is 400, an unknown task 404,
// anyone but an agent 403, and a refusal journals nothing.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
const usageRoute = apiHandler("POST", "/api/usage");
import { getDb } from "../../db/client";
import { httpClient, ok, refused } from "../../test/mcp/client";
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { systemClock } from "../clock";
import { createTask } from "../tasks/create";
import { BILL_KINDS } from "./bill-fold";
import type { PriceConfig } from "./prices";
import { readBill } from "./read-bill";
import { refreshBillSnapshot } from "./snapshot";
import { apiHandler } from "../../test/api";

const PRICES: PriceConfig = { currency: "USD", problem: null, prices: { "claude-sonnet-4-5": { input: 3, output: 15, cachedInput: 0.3 } } };

const usageEvents = async (actor: string) => Number((await getDb().execute(sql`select count(*)::int as n from events where kind = 'UsageReported' and actor = ${actor}`))[0].n);

describe("POST /api/usage", () => {
  it("journals the call as self-reported and the Bill folds it onto the agent, its task and the model, priced, marked self-reported", async () => {
    const human = await makeHuman();
    const claude = await makeAgent(undefined, "outside");
    const task = await createTask(getDb(), human, { title: "Port the parser", acceptanceCriteria: "tests pass" }, systemClock);

    const first = await call(usageRoute, "/api/usage", {
      key: claude.key,
      body: { model: "claude-sonnet-4-5", inputTokens: 12_000, outputTokens: 800, cachedTokens: 10_000, taskId: task.id },
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      model: "claude-sonnet-4-5",
      inputTokens: 12_000,
      outputTokens: 800,
      cachedTokens: 10_000,
      tokens: 12_800,
      taskId: task.id,
      selfReported: true,
    });
    const [event] = await getDb().execute(sql`select kind, actor, task_id, data from events where id = ${first.body.eventId}`);
    expect(event).toMatchObject({ kind: "UsageReported", actor: claude.id, task_id: task.id, data: { amount: 12_800, selfReported: true } });

    // Folded into the snapshot, then a second call read from the unsettled tail over it: both count once.
    await refreshBillSnapshot(getDb());
    expect((await call(usageRoute, "/api/usage", { key: claude.key, body: { model: "claude-sonnet-4-5", inputTokens: 1_000, outputTokens: 200 } })).status).toBe(201);
    const bill = await readBill(getDb(), PRICES);
    const line = bill.agents.find((a) => a.agentId === claude.id);
    expect(line).toMatchObject({
      agentName: claude.name,
      tokens: 14_000,
      inputTokens: 13_000,
      outputTokens: 1_000,
      cachedTokens: 10_000,
      calls: 2,
      selfReportedTokens: 14_000,
      selfReportedCalls: 2,
      runs: 0,
    });
    // Priced like any call: 3k uncached input at 3, 10k cached at 0.3, 1k output at 15 (per million).
    expect(line?.cost).toBeCloseTo((3_000 * 3 + 10_000 * 0.3 + 1_000 * 15) / 1e6, 9);
    expect(bill.models.find((m) => m.model === "claude-sonnet-4-5")).toMatchObject({ selfReportedTokens: 14_000, selfReportedCalls: 2 });
    expect(bill.tasks.items.find((t) => t.taskId === task.id)).toMatchObject({ tokens: 12_800 });
    // No budget pays for it: budgets bound Quorum's own runs.
    expect(bill.budgets.every((b) => b.ownerId !== claude.id)).toBe(true);
  });

  it("refuses bad input (400), a task that does not exist (404) and anyone but an agent (401, 403), journalling nothing", async () => {
    const human = await makeHuman();
    const agent = await makeAgent();
    const report = (body: unknown, who: { key?: string; cookie?: string } = { key: agent.key }) => call(usageRoute, "/api/usage", { ...who, body });
    const good = { model: "gpt-5", inputTokens: 10, outputTokens: 5 };

    for (const bad of [
      {},
      { ...good, model: "" },
      { ...good, model: "\u200b" },
      { ...good, inputTokens: -1 },
      { ...good, outputTokens: 1.5 },
      { ...good, inputTokens: 10_000_001 },
      { ...good, cachedTokens: 11 },
      { ...good, taskId: "12" },
      { ...good, costUsd: 0.1 },
    ]) {
      const res = await report(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body).toMatchObject({ error: "invalid", issues: expect.any(Array) });
    }
    expect(await report({ ...good, taskId: "00000000-0000-4000-8000-000000000000" })).toMatchObject({ status: 404, body: { error: "not_found" } });
    expect((await report(good, { cookie: human.cookie })).status).toBe(403);
    expect((await call(usageRoute, "/api/usage", { body: good })).status).toBe(401);
    expect(await usageEvents(agent.id)).toBe(0);
    expect(await usageEvents(human.id)).toBe(0);
  });

  it("is MCP's report_usage too: the same schema and function, a refusal a tool error with its body", async () => {
    const agent = await makeAgent();
    const client = await httpClient(agent.key, "worker");
    expect(await ok(client, "report_usage", { model: "gpt-5", inputTokens: 300, outputTokens: 40, cachedTokens: 200 })).toMatchObject({
      model: "gpt-5",
      tokens: 340,
      selfReported: true,
    });
    expect(await refused(client, "report_usage", { model: "gpt-5", inputTokens: 1, outputTokens: 1, cachedTokens: 5 })).toMatchObject({ error: "invalid" });
    expect(await refused(client, "report_usage", { model: "gpt-5", inputTokens: 1, outputTokens: 1, taskId: "00000000-0000-4000-8000-000000000000" })).toMatchObject({
      error: "not_found",
    });
    await client.close();
    expect(await usageEvents(agent.id)).toBe(1);
  });

  it("keeps the journal's partial index of bill events in step with the kinds the bill folds", async () => {
    const [index] = await getDb().execute<{ indexdef: string }>(sql`select indexdef from pg_indexes where indexname = 'events_bill_settled_idx'`);
    for (const kind of BILL_KINDS) expect(index.indexdef).toContain(`'${kind}'`);
  });
});

// The roster's numbers per agent — lease, load, success rate, spend, budget left — and an agent's page.
import { describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
const agentsRoute = apiHandler("GET", "/api/agents");
const agentRoute = apiHandler("GET", "/api/agents/[id]");
const agentRunsRoute = apiHandler("GET", "/api/agents/[id]/runs");
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { systemClock } from "../clock";
import { appendLooseEvent } from "../../test/fixtures/journal";
import { claimTask } from "../tasks/claim";
import { createTask } from "../tasks/create";
import { reviewTask } from "../tasks/review";
import { submitTask } from "../tasks/submit";
import { apiHandler } from "../../test/api";

describe("the roster", () => {
  it("gives each agent its lease, load, success rate, spend and budget left", async () => {
    const db = getDb();
    const lead = await makeHuman();
    const coder = await makeAgent();
    const idle = await makeAgent();
    const task = (title: string) => createTask(db, lead, { title, acceptanceCriteria: "it works" }, systemClock);
    // Two reviewed: one accepted, one rejected (back in progress); a third claimed: load 2.
    const [a, b, c] = [await task("a"), await task("b"), await task("c")];
    for (const t of [a, b]) {
      const claimed = await claimTask(db, coder, t.id, systemClock);
      await submitTask(db, coder, t.id, { fence: claimed.fence, summary: "done", evidence: "1 passed" }, systemClock);
    }
    await reviewTask(db, lead, a.id, { verdict: "accept" }, systemClock);
    await reviewTask(db, lead, b.id, { verdict: "reject", reason: "no test" }, systemClock);
    await claimTask(db, coder, c.id, systemClock);
    const budgetId = "44444444-4444-4444-8444-444444444444";
    await appendLooseEvent(db, { kind: "BudgetCreated", data: { budgetId, ownerId: coder.id, parentId: null, label: "coder", allowance: 1000 } });
    await appendLooseEvent(db, { kind: "RunStarted", actor: coder.id, runId: "run_roster", taskId: c.id, data: {} });
    await appendLooseEvent(db, {
      kind: "BudgetDebited",
      actor: coder.id,
      runId: "run_roster",
      taskId: c.id,
      data: { amount: 300, inputTokens: 250, outputTokens: 50, cachedTokens: 0, estimated: false, model: "m", budgetIds: [budgetId] },
    });

    const roster = await call(agentsRoute, "/api/agents", { cookie: lead.cookie });
    expect(roster.status).toBe(200);
    const row = roster.body.items.find((p: { id: string }) => p.id === coder.id);
    expect(row).toMatchObject({ load: 2, accepted: 1, reviewed: 2, successRate: 0.5, tokens: 300, runs: 1, allowance: 1000, budgetLeft: 700, exhausted: false });
    expect(row.lease.taskId).toBeDefined();
    expect(roster.body.items.find((p: { id: string }) => p.id === idle.id)).toMatchObject({ load: 0, lease: null, successRate: null, tokens: 0, budgetLeft: null });
    expect(roster.body.items.find((p: { id: string }) => p.id === lead.id).load).toBeUndefined();

    const detail = await call(agentRoute, `/api/agents/${coder.id}`, { cookie: lead.cookie, params: { id: coder.id } });
    expect(detail.status).toBe(200);
    expect(detail.body.agent).toMatchObject({ name: coder.name, load: 2, tokens: 300 });
    expect(detail.body.budgets).toEqual([expect.objectContaining({ budgetId, allowance: 1000, spent: 300, left: 700 })]);
    const runs = await call(agentRunsRoute, `/api/agents/${coder.id}/runs`, { cookie: lead.cookie, params: { id: coder.id } });
    expect(runs.body.items).toEqual([expect.objectContaining({ runId: "run_roster", taskId: c.id, status: "running", tokens: 300 })]);

    expect((await call(agentRoute, "/x", { cookie: lead.cookie, params: { id: lead.id } })).status).toBe(404);
    expect((await call(agentRoute, "/x", { cookie: lead.cookie, params: { id: "coder" } })).status).toBe(404);
    expect((await call(agentRunsRoute, "/x?before=0", { cookie: lead.cookie, params: { id: coder.id } })).status).toBe(400);
  });
});

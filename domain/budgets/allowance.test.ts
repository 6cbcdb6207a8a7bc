// A human changes a budget's allowance over HTTP: a top-up is journalled; agents, bad input and
// promises the children already hold are refused, and a refusal changes nothing.
import { describe, expect, it } from "vitest";
const allowanceRoute = apiRoute("/api/budgets/[id]/allowance");
import { getDb } from "../../db/client";
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { systemClock } from "../clock";
import { listJournal } from "../journal/list";
import { createBudget } from "./create";
import { apiRoute } from "../../test/api";

const post = (id: string, body: unknown, who: { key?: string; cookie?: string }) => call(allowanceRoute.POST, `/api/budgets/${id}/allowance`, { body, params: { id }, ...who });

describe("POST /api/budgets/:id/allowance", () => {
  it("lets a human top up a budget and journals the change with the previous allowance", async () => {
    const [human, coder] = [await makeHuman(), await makeAgent()];
    const budget = await createBudget(getDb(), null, { ownerId: coder.id, allowance: 300 }, systemClock);
    const reply = await post(budget.id, { allowance: 2000 }, { cookie: human.cookie });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ id: budget.id, allowance: 2000 });
    const changed = (await listJournal(getDb(), { kind: "BudgetAllowanceChanged", actor: human.id })).items;
    expect(changed.map((e) => e.data)).toEqual([{ budgetId: budget.id, allowance: 2000, previous: 300 }]);
  });

  it("refuses agents, bad bodies, unknown budgets and allowances below what the sub-budgets hold", async () => {
    const [human, lead, worker] = [await makeHuman(), await makeAgent(), await makeAgent()];
    const parent = await createBudget(getDb(), null, { ownerId: lead.id, allowance: 1000 }, systemClock);
    await createBudget(getDb(), lead, { ownerId: worker.id, parentId: parent.id, allowance: 600 }, systemClock);

    expect((await post(parent.id, { allowance: 5000 }, { key: worker.key })).status).toBe(403);
    // Its owner cannot raise its own top-level budget either: only a funder can.
    expect((await post(parent.id, { allowance: 5000 }, { key: lead.key })).status).toBe(403);
    const invalid = await post(parent.id, { allowance: -1 }, { cookie: human.cookie });
    expect(invalid.status).toBe(400);
    expect(invalid.body.issues[0].path).toEqual(["allowance"]);
    expect((await post(parent.id, { allowance: 10.5 }, { cookie: human.cookie })).status).toBe(400);
    expect((await post("00000000-0000-4000-8000-000000000000", { allowance: 10 }, { cookie: human.cookie })).status).toBe(404);
    expect((await post("not-a-budget", { allowance: 10 }, { cookie: human.cookie })).status).toBe(404);
    const under = await post(parent.id, { allowance: 500 }, { cookie: human.cookie });
    expect(under).toMatchObject({ status: 409, body: { error: "under_children", promised: 600 } });
    expect((await listJournal(getDb(), { kind: "BudgetAllowanceChanged", actor: human.id })).items).toEqual([]);
  });
});

// The board's HTTP API (DESIGN §15): statuses, shapes, and that a refused request changes nothing.
import { describe, expect, it } from "vitest";
const listRoute = apiHandler("GET", "/api/tasks");
const createRoute = apiHandler("POST", "/api/tasks");
const claimNextRoute = apiHandler("POST", "/api/tasks/claim-next");
const detailRoute = apiHandler("GET", "/api/tasks/[id]");
const claimRoute = apiHandler("POST", "/api/tasks/[id]/claim");
const heartbeatRoute = apiHandler("POST", "/api/tasks/[id]/heartbeat");
const outputListRoute = apiHandler("GET", "/api/tasks/[id]/output");
const outputRoute = apiHandler("POST", "/api/tasks/[id]/output");
const submitRoute = apiHandler("POST", "/api/tasks/[id]/submit");
const reviewRoute = apiHandler("POST", "/api/tasks/[id]/review");
const reopenRoute = apiHandler("POST", "/api/tasks/[id]/reopen");
const cancelRoute = apiHandler("POST", "/api/tasks/[id]/cancel");
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { taskEventKinds } from "../../test/fixtures/board";
import { apiHandler } from "../../test/api";

const criteria = "parse('') returns []";
const adr = { title: "Superseded", context: "The tokenizer rewrite covers it.", decision: "Cancel.", consequences: "Track it in #12." };

async function team() {
  const [lead, ada, bo] = [await makeHuman(), await makeAgent(), await makeAgent()];
  return { lead, ada, bo };
}

describe("POST /api/tasks and GET /api/tasks", () => {
  it("creates a task (201, camelCase) and lists it by status", async () => {
    const { lead } = await team();
    const res = await call(createRoute, "/api/tasks", { cookie: lead.cookie, body: { title: "Parse empty input", acceptanceCriteria: criteria, description: "see #3" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: "Parse empty input",
      description: "see #3",
      acceptanceCriteria: criteria,
      status: "ready",
      ownerId: null,
      approverId: lead.id,
      fence: 0,
      leaseExpiresAt: null,
      outputCount: 0,
      parentId: null,
      createdBy: lead.id,
    });
    expect(Object.keys(res.body)).toEqual(expect.arrayContaining(["id", "createdAt", "updatedAt", "number"]));
    const listed = await call(listRoute, "/api/tasks?status=ready,in_progress&limit=500", { cookie: lead.cookie });
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((t: { id: string }) => t.id)).toContain(res.body.id);
    expect((await call(listRoute, "/api/tasks?status=done", { cookie: lead.cookie })).body.items.map((t: { id: string }) => t.id)).not.toContain(res.body.id);
  });

  it("answers 400 with zod issues for bad input and stores nothing; 401 without credentials; 404 for an unknown approver", async () => {
    const { lead } = await team();
    const before = (await call(listRoute, "/api/tasks?limit=500", { cookie: lead.cookie })).body.items.length;
    const cases = [{}, { title: "" }, { title: "   " }, { title: "nul \u0000" }, { title: "x", leaseMinutes: 0 }, { title: "x", approverId: "bob" }, { title: "x", extra: 1 }, "{"];
    for (const body of cases) {
      const res = await call(createRoute, "/api/tasks", { cookie: lead.cookie, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe("invalid");
    }
    expect((await call(createRoute, "/api/tasks", { cookie: lead.cookie, body: {} })).body.issues[0].path).toEqual(["title"]);
    expect((await call(listRoute, "/api/tasks?status=finished", { cookie: lead.cookie })).status).toBe(400);
    expect((await call(createRoute, "/api/tasks", { body: { title: "x" } })).status).toBe(401);
    const unknown = await call(createRoute, "/api/tasks", { cookie: lead.cookie, body: { title: "x", approverId: "00000000-0000-4000-8000-000000000000" } });
    expect(unknown.status).toBe(404);
    expect((await call(listRoute, "/api/tasks?limit=500", { cookie: lead.cookie })).body.items.length).toBe(before);
  });
});

describe("working a task over HTTP", () => {
  it("claims, heartbeats, writes output, submits, is reviewed and reopened, with every refusal on the way", async () => {
    const { lead, ada, bo } = await team();
    const created = await call(createRoute, "/api/tasks", { cookie: lead.cookie, body: { title: "Work it", acceptanceCriteria: criteria } });
    const id = created.body.id;
    const params = { id };

    expect((await call(claimRoute, `/api/tasks/${id}/claim`, { params, key: ada.key, body: { fence: 1 } })).status).toBe(400);
    const claimed = await call(claimRoute, `/api/tasks/${id}/claim`, { params, key: ada.key, body: {} });
    expect(claimed.status).toBe(200);
    expect(claimed.body).toMatchObject({ status: "in_progress", ownerId: ada.id, fence: 1 });
    const again = await call(claimRoute, `/api/tasks/${id}/claim`, { params, key: bo.key, body: {} });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: "wrong_status", status: "in_progress" });

    expect((await call(heartbeatRoute, `/api/tasks/${id}/heartbeat`, { params, key: ada.key, body: {} })).status).toBe(400);
    const stale = await call(heartbeatRoute, `/api/tasks/${id}/heartbeat`, { params, key: ada.key, body: { fence: 0 } });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe("stale_fence");
    expect((await call(heartbeatRoute, `/api/tasks/${id}/heartbeat`, { params, key: bo.key, body: { fence: 1 } })).status).toBe(403);
    expect((await call(heartbeatRoute, `/api/tasks/${id}/heartbeat`, { params, key: ada.key, body: { fence: 1 } })).status).toBe(200);

    for (const body of [
      { fence: 1, items: [] },
      { fence: 1, items: [null] },
      { fence: 1, items: [{ s: "\u0000" }] },
      { fence: 1 },
      { items: ["x"] },
      { fence: 1.5, items: ["x"] },
      { fence: 1, from: 0, items: ["x"] },
    ]) {
      expect((await call(outputRoute, `/api/tasks/${id}/output`, { params, key: ada.key, body })).status, JSON.stringify(body)).toBe(400);
    }
    const wrote = await call(outputRoute, `/api/tasks/${id}/output`, { params, key: ada.key, body: { fence: 1, items: [{ file: "parse.ts" }, "step 2"] } });
    expect(wrote.status).toBe(200);
    expect(wrote.body.outputCount).toBe(2);
    const moved = await call(outputRoute, `/api/tasks/${id}/output`, { params, key: ada.key, body: { fence: 1, from: 2, items: ["other"] } });
    expect(moved.status).toBe(409);
    expect(moved.body).toMatchObject({ error: "output_conflict", outputCount: 2 });
    expect((await call(outputListRoute, `/api/tasks/${id}/output?after=99999999999`, { params, key: bo.key })).status).toBe(400);
    const items = await call(outputListRoute, `/api/tasks/${id}/output?after=1`, { params, key: bo.key });
    expect(items.body.items.map((i: { seq: number; item: unknown }) => [i.seq, i.item])).toEqual([[2, "step 2"]]);

    expect((await call(submitRoute, `/api/tasks/${id}/submit`, { params, key: ada.key, body: { fence: 1, summary: "done" } })).status).toBe(400);
    const submitted = await call(submitRoute, `/api/tasks/${id}/submit`, { params, key: ada.key, body: { fence: 1, summary: "done", evidence: "12 passed" } });
    expect(submitted.status).toBe(200);
    expect(submitted.body.status).toBe("review");

    expect((await call(reviewRoute, `/api/tasks/${id}/review`, { params, key: bo.key, body: { verdict: "accept" } })).status).toBe(403);
    const noReason = await call(reviewRoute, `/api/tasks/${id}/review`, { params, cookie: lead.cookie, body: { verdict: "reject", reason: " " } });
    expect(noReason.status).toBe(400);
    expect(noReason.body.issues[0].path).toEqual(["reason"]);
    expect((await call(reviewRoute, `/api/tasks/${id}/review`, { params, cookie: lead.cookie, body: { verdict: "maybe" } })).status).toBe(400);
    const accepted = await call(reviewRoute, `/api/tasks/${id}/review`, { params, cookie: lead.cookie, body: { verdict: "accept", reason: "clean" } });
    expect(accepted.status).toBe(200);
    expect(accepted.body.status).toBe("done");

    expect((await call(reopenRoute, `/api/tasks/${id}/reopen`, { params, cookie: lead.cookie, body: { evidence: "" } })).status).toBe(400);
    const reopened = await call(reopenRoute, `/api/tasks/${id}/reopen`, { params, cookie: lead.cookie, body: { evidence: "fails on '\\n'" } });
    expect(reopened.status).toBe(200);
    expect(reopened.body).toMatchObject({ status: "ready", ownerId: null });

    const next = await call(claimRoute, `/api/tasks/${id}/claim`, { params, key: bo.key, body: {} });
    expect(next.status).toBe(200);
    expect(next.body).toMatchObject({ id, fence: 2, ownerId: bo.id });
    const late = await call(outputRoute, `/api/tasks/${id}/output`, { params, key: ada.key, body: { fence: 1, items: ["late"] } });
    expect(late.status).toBe(409);
    expect(late.body.error).toBe("stale_fence");

    const detail = await call(detailRoute, `/api/tasks/${id}`, { params, key: bo.key });
    expect(detail.status).toBe(200);
    expect(detail.body.task).toMatchObject({ id, outputCount: 2 });
    expect(detail.body.reviews).toHaveLength(1);
    expect(detail.body.evidence.map((e: { kind: string }) => e.kind)).toEqual(["submission", "reopen"]);
    expect(await taskEventKinds(id)).toEqual(expect.arrayContaining(["TaskReviewed", "TaskReopened", "OutputAppended", "LeaseRenewed"]));
  });

  it("answers a retried submit (its first answer lost) as the first did, writing nothing; another submission is refused", async () => {
    const { lead, ada, bo } = await team();
    const id = (await call(createRoute, "/api/tasks", { cookie: lead.cookie, body: { title: "Submit twice", acceptanceCriteria: criteria } })).body.id;
    const params = { id };
    await call(claimRoute, `/api/tasks/${id}/claim`, { params, key: ada.key, body: {} });
    const body = { fence: 1, summary: "done", evidence: "12 passed" };
    const first = await call(submitRoute, `/api/tasks/${id}/submit`, { params, key: ada.key, body });
    expect(first.status).toBe(200);
    const kinds = await taskEventKinds(id);
    const retried = await call(submitRoute, `/api/tasks/${id}/submit`, { params, key: ada.key, body });
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual(first.body);
    expect(await taskEventKinds(id)).toEqual(kinds);
    // Anything else is not a retry: other words, another fence, another agent.
    for (const [key, other] of [
      [ada.key, { ...body, evidence: "13 passed" }],
      [ada.key, { ...body, summary: "done again" }],
      [bo.key, body],
    ] as const) {
      const refused = await call(submitRoute, `/api/tasks/${id}/submit`, { params, key, body: other });
      expect(refused.status, JSON.stringify(other)).toBe(409);
      expect(refused.body.error).toBe("wrong_status");
    }
    expect((await call(submitRoute, `/api/tasks/${id}/submit`, { params, key: ada.key, body: { ...body, fence: 0 } })).body.error).toBe("stale_fence");
    expect(await taskEventKinds(id)).toEqual(kinds);
    const detail = await call(detailRoute, `/api/tasks/${id}`, { params, key: bo.key });
    expect(detail.body.evidence).toHaveLength(1);
  });

  it("answers claim-next with 204 when nothing is ready for the caller", async () => {
    const { lead, ada } = await team();
    // Only tasks ada approves are ready for her here, and she may not own those.
    const mine = await call(createRoute, "/api/tasks", { key: ada.key, body: { title: "Ada approves", acceptanceCriteria: criteria } });
    expect(mine.body.approverId).toBe(ada.id);
    const drain = async () => {
      for (;;) {
        const res = await call(claimNextRoute, "/api/tasks/claim-next", { key: ada.key, body: {} });
        if (res.status === 204) return res;
        expect(res.body.approverId).not.toBe(ada.id);
      }
    };
    const res = await drain();
    expect(res.body).toBeUndefined();
    expect((await call(detailRoute, `/api/tasks/${mine.body.id}`, { params: { id: mine.body.id }, cookie: lead.cookie })).body.task.status).toBe("ready");
  });

  it("cancels only with a complete ADR, then shows it in the drawer", async () => {
    const { lead } = await team();
    const created = await call(createRoute, "/api/tasks", { cookie: lead.cookie, body: { title: "Bury me", acceptanceCriteria: criteria } });
    const params = { id: created.body.id };
    const { consequences: _, ...partial } = adr;
    const missing = await call(cancelRoute, `/api/tasks/${params.id}/cancel`, { params, cookie: lead.cookie, body: { adr: partial } });
    expect(missing.status).toBe(400);
    expect(missing.body.issues[0].path).toEqual(["adr", "consequences"]);
    expect((await call(cancelRoute, `/api/tasks/${params.id}/cancel`, { params, cookie: lead.cookie, body: {} })).status).toBe(400);
    const cancelled = await call(cancelRoute, `/api/tasks/${params.id}/cancel`, { params, cookie: lead.cookie, body: { adr } });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe("cancelled");
    const detail = await call(detailRoute, `/api/tasks/${params.id}`, { params, cookie: lead.cookie });
    expect(detail.body.adr).toMatchObject(adr);
    expect((await call(detailRoute, "/api/tasks/nope", { params: { id: "nope" }, cookie: lead.cookie })).status).toBe(404);
  });
});

// The ledger's life cycle through the HTTP API: candidate, confirmed by its owner only, fulfilled or withdrawn with reasons.
import { describe, expect, it } from "vitest";
import { getConnection, getDb } from "../../db/client";
import { manualClock } from "../clock";
const ledgerRoute = apiHandler("GET", "/api/commitments");
const proposeRoute = apiHandler("POST", "/api/commitments");
const confirmRoute = apiHandler("POST", "/api/commitments/[id]/confirm");
const fulfilRoute = apiHandler("POST", "/api/commitments/[id]/fulfil");
const withdrawRoute = apiHandler("POST", "/api/commitments/[id]/withdraw");
import { listJournal } from "../journal/list";
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { readCommitmentView } from "./commitment-view";
import { proposeCommitment } from "./propose";
import { apiHandler } from "../../test/api";

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

async function countOwned(ownerId: string): Promise<number> {
  const [row] = await getConnection().sql`select count(*)::int as n from commitments where owner_id = ${ownerId}`;
  return row.n;
}

describe("commitments", () => {
  it("'I'll take it' creates a candidate that only its owner can confirm", async () => {
    const [owner, other] = await Promise.all([makeAgent(), makeAgent()]);
    const human = await makeHuman();
    const taskId = "6f1c7c3e-3f0e-4b8a-9a57-1d2f3a4b5c6d";
    const proposed = await call(proposeRoute, "/api/commitments", { key: owner.key, body: { what: "fix parse('')", taskId, dueAt: inAnHour() } });
    expect(proposed.status).toBe(201);
    expect(proposed.body).toMatchObject({ status: "candidate", ownerId: owner.id, ownerName: owner.name, taskId, overdue: false, blockers: [] });
    const params = { id: proposed.body.id };
    expect((await call(confirmRoute, "/x", { key: other.key, params, body: {} })).status).toBe(403);
    expect((await call(confirmRoute, "/x", { cookie: human.cookie, params, body: {} })).status).toBe(403);
    const confirmed = await call(confirmRoute, "/x", { key: owner.key, params, body: {} });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ status: "confirmed" });
    expect(confirmed.body.confirmedAt).not.toBeNull();
    const again = await call(confirmRoute, "/x", { key: owner.key, params, body: {} });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: "wrong_status", status: "confirmed" });
    const kinds = (await listJournal(getDb(), { actor: owner.id })).items.map((e) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(["CommitmentProposed", "CommitmentConfirmed"]));
  });

  it("fulfils only a confirmed commitment, and only with a reason", async () => {
    const owner = await makeAgent();
    const { body: c } = await call(proposeRoute, "/api/commitments", { key: owner.key, body: { what: "write the migration" } });
    const params = { id: c.id };
    const early = await call(fulfilRoute, "/x", { key: owner.key, params, body: { reason: "done" } });
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ error: "wrong_status", status: "candidate" });
    await call(confirmRoute, "/x", { key: owner.key, params, body: {} });
    const bare = await call(fulfilRoute, "/x", { key: owner.key, params, body: {} });
    expect(bare.status).toBe(400);
    expect(bare.body.issues[0].path).toEqual(["reason"]);
    const done = await call(fulfilRoute, "/x", { key: owner.key, params, body: { reason: "merged in #41, tests green" } });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: "fulfilled", reason: "merged in #41, tests green" });
    const withdraw = await call(withdrawRoute, "/x", { key: owner.key, params, body: { reason: "changed my mind" } });
    expect(withdraw.status).toBe(409);
    const event = (await listJournal(getDb(), { kind: "CommitmentFulfilled", actor: owner.id })).items[0];
    expect(event.data).toMatchObject({ commitmentId: c.id, reason: "merged in #41, tests green" });
  });

  it("withdraws a candidate or a confirmed commitment with a reason, by its owner only", async () => {
    const [owner, other] = await Promise.all([makeAgent(), makeAgent()]);
    const { body: c } = await call(proposeRoute, "/api/commitments", { key: owner.key, body: { what: "review the parser" } });
    const params = { id: c.id };
    expect((await call(withdrawRoute, "/x", { key: other.key, params, body: { reason: "not mine" } })).status).toBe(403);
    expect((await call(withdrawRoute, "/x", { key: owner.key, params, body: { reason: "" } })).status).toBe(400);
    const withdrawn = await call(withdrawRoute, "/x", { key: owner.key, params, body: { reason: "the reviewer took it" } });
    expect(withdrawn.body).toMatchObject({ status: "withdrawn", reason: "the reviewer took it" });
  });

  it("refuses bad input with 400 and stores nothing; unknown ids are 404; no credentials 401", async () => {
    const owner = await makeAgent();
    const bad = [
      [{ what: "" }, ["what"]],
      [{ what: "x", dueAt: "tomorrow" }, ["dueAt"]],
      [{ what: "x", taskId: "task-1" }, ["taskId"]],
      [{ what: "x", dueAt: new Date(Date.now() - 60_000).toISOString() }, ["dueAt"]],
      [{ what: "x", owner: "someone-else" }, []],
    ] as const;
    for (const [body, path] of bad) {
      const res = await call(proposeRoute, "/api/commitments", { key: owner.key, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.issues[0].path).toEqual(path);
    }
    expect(await countOwned(owner.id)).toBe(0);
    const missing = await call(confirmRoute, "/x", { key: owner.key, params: { id: "00000000-0000-4000-8000-000000000000" }, body: {} });
    expect(missing.status).toBe(404);
    expect((await call(proposeRoute, "/api/commitments", { body: { what: "x" } })).status).toBe(401);
  });

  it("lists the ledger filtered by owner and status and marks overdue work", async () => {
    const clock = manualClock(new Date());
    const [a, b] = await Promise.all([makeAgent(), makeAgent()]);
    const soon = await proposeCommitment(getDb(), a, { what: "soon", dueAt: new Date(clock.now().getTime() + 1_000).toISOString() }, clock);
    await proposeCommitment(getDb(), a, { what: "later", dueAt: new Date(clock.now().getTime() + 86_400_000).toISOString() }, clock);
    await proposeCommitment(getDb(), b, { what: "b's" }, clock);
    const mine = await call(ledgerRoute, `/api/commitments?owner=${a.id}&status=candidate`, { key: b.key });
    expect(mine.status).toBe(200);
    expect(mine.body.items.map((c: { what: string }) => c.what)).toEqual(["later", "soon"]);
    clock.advance(2_000);
    expect((await readCommitmentView(getDb(), soon.id, clock.now())).overdue).toBe(true);
    const page = await call(ledgerRoute, `/api/commitments?owner=${a.id}&limit=1`, { key: b.key });
    expect(page.body.items).toHaveLength(1);
    const rest = await call(ledgerRoute, `/api/commitments?owner=${a.id}&limit=1&before=${page.body.next}`, { key: b.key });
    expect(rest.body.items[0].what).toBe("soon");
    expect((await call(ledgerRoute, "/api/commitments?status=late", { key: b.key })).status).toBe(400);
    expect((await call(ledgerRoute, "/api/commitments?before=99999999999", { key: b.key })).status).toBe(400);
  });
});

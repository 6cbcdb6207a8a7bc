// The decision board through its server functions and its HTTP API: ballots, quorum, ties, refusals.
import { describe, expect, it } from "vitest";
import { getConnection, getDb } from "../../db/client";
import { manualClock } from "../clock";
const listRoute = apiHandler("GET", "/api/decisions");
const openRoute = apiHandler("POST", "/api/decisions");
const oneRoute = apiHandler("GET", "/api/decisions/[id]");
const ballotRoute = apiHandler("POST", "/api/decisions/[id]/ballots");
const resolveRoute = apiHandler("POST", "/api/decisions/[id]/resolve");
import { listJournal } from "../journal/list";
import { listMessages } from "../rooms/list-messages";
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { castBallot } from "./cast-ballot";
import { openDecision, type OpenDecisionInput } from "./open-decision";
import { resolveEscalation } from "./resolve-escalation";
import { apiHandler } from "../../test/api";

const parser: OpenDecisionInput = {
  question: "Which parser do we keep?",
  options: ["nom", "pest", "hand-written"],
  defaultOption: "hand-written",
  consequence: "we ship the hand-written parser and its known bug",
  quorum: 3,
  timeboxSeconds: 600,
  escalationTimeboxSeconds: 300,
};

async function countRows(table: string, where: string, id: string): Promise<number> {
  const rows = await getConnection().sql.unsafe(`select count(*)::int as n from ${table} where ${where} = $1`, [id]);
  return rows[0].n;
}

describe("opening a decision", () => {
  it("returns 201 with the stored decision and journals DecisionOpened", async () => {
    const agent = await makeAgent();
    const res = await call(openRoute, "/api/decisions", { key: agent.key, body: parser });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ question: parser.question, options: parser.options, status: "open", quorum: 3, openedByName: agent.name });
    expect(res.body.tally).toEqual(parser.options.map((option) => ({ option, count: 0 })));
    const journal = await listJournal(getDb(), { kind: "DecisionOpened", actor: agent.id });
    expect(journal.items[0].data).toMatchObject({ decisionId: res.body.id, defaultOption: "hand-written" });
  });

  it("refuses bad input with 400 and zod issues, storing nothing", async () => {
    const agent = await makeAgent();
    const bad = [
      [{ ...parser, options: ["only"] }, ["options"]],
      [{ ...parser, options: ["a", "a"], defaultOption: "a" }, ["options"]],
      [{ ...parser, defaultOption: "antlr" }, ["defaultOption"]],
      [{ ...parser, quorum: 0 }, ["quorum"]],
      [{ ...parser, timeboxSeconds: 1.5 }, ["timeboxSeconds"]],
      [{ ...parser, consequence: "  " }, ["consequence"]],
      [{ ...parser, extra: true }, []],
    ] as const;
    for (const [body, path] of bad) {
      const res = await call(openRoute, "/api/decisions", { key: agent.key, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.issues[0].path).toEqual(path);
    }
    expect(await countRows("decisions", "opened_by", agent.id)).toBe(0);
    expect((await call(openRoute, "/api/decisions", { body: parser })).status).toBe(401);
  });
});

describe("ballots", () => {
  it("closes with the plurality option once quorum ballots are in, and announces it", async () => {
    const clock = manualClock();
    const [a, b, c, d] = await Promise.all([makeAgent(), makeAgent(), makeAgent(), makeAgent()]);
    const decision = await openDecision(getDb(), a, parser, clock);
    await castBallot(getDb(), a, decision.id, { option: "nom", reasoning: "fast and typed" }, clock);
    const second = await castBallot(getDb(), b, decision.id, { option: "pest", reasoning: "grammar file is readable" }, clock);
    expect(second.decision.status).toBe("open");
    const third = await castBallot(getDb(), c, decision.id, { option: "nom", reasoning: "we already use it" }, clock);
    expect(third.decision).toMatchObject({ status: "closed", outcome: "nom" });
    expect(third.decision.tally).toEqual([
      { option: "nom", count: 2 },
      { option: "pest", count: 1 },
      { option: "hand-written", count: 0 },
    ]);
    const late = await call(ballotRoute, "/x", { key: d.key, params: { id: decision.id }, body: { option: "pest", reasoning: "late" } });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ error: "wrong_status", status: "closed" });
    const closed = await listJournal(getDb(), { kind: "DecisionClosed" });
    expect(closed.items.find((e) => (e.data as { decisionId: string }).decisionId === decision.id)?.data).toMatchObject({ outcome: "nom" });
    const room = await listMessages(getDb(), a, "general", {});
    expect(room.items.some((m) => m.body.startsWith(`D-${decision.number} decided by ballot: “nom”`))).toBe(true);
  });

  it("allows one ballot per voter (409 duplicate) and refuses options that do not exist (400)", async () => {
    const agent = await makeAgent();
    const opened = await call(openRoute, "/api/decisions", { key: agent.key, body: parser });
    const params = { id: opened.body.id };
    const first = await call(ballotRoute, "/x", { key: agent.key, params, body: { option: "pest", reasoning: "readable" } });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ voterId: agent.id, option: "pest", reasoning: "readable" });
    const again = await call(ballotRoute, "/x", { key: agent.key, params, body: { option: "nom", reasoning: "changed my mind" } });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe("duplicate");
    const other = await makeAgent();
    const unknown = await call(ballotRoute, "/x", { key: other.key, params, body: { option: "antlr", reasoning: "classic" } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.issues[0].path).toEqual(["option"]);
    const noReason = await call(ballotRoute, "/x", { key: other.key, params, body: { option: "nom" } });
    expect(noReason.status).toBe(400);
    expect(await countRows("ballots", "decision_id", opened.body.id)).toBe(1);
    const missing = await call(ballotRoute, "/x", { key: other.key, params: { id: "00000000-0000-4000-8000-000000000000" }, body: { option: "nom", reasoning: "x" } });
    expect(missing.status).toBe(404);
    expect((await call(ballotRoute, "/x", { key: other.key, params: { id: "nope" }, body: { option: "nom", reasoning: "x" } })).status).toBe(404);
  });

  it("counts concurrent ballots exactly once each: the quorum ballot is unique", async () => {
    const voters = await Promise.all(Array.from({ length: 6 }, () => makeAgent()));
    const decision = await openDecision(getDb(), voters[0], { ...parser, quorum: 3 }, manualClock());
    const results = await Promise.allSettled(voters.map((v) => castBallot(getDb(), v, decision.id, { option: "nom", reasoning: `${v.name} agrees` }, manualClock())));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    expect(results.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(["wrong_status", "wrong_status", "wrong_status"]);
    expect(await countRows("ballots", "decision_id", decision.id)).toBe(3);
  });

  it("refuses a ballot after the timebox even before the sweeper ran", async () => {
    const clock = manualClock();
    const agent = await makeAgent();
    const decision = await openDecision(getDb(), agent, parser, clock);
    clock.advance(600_000);
    await expect(castBallot(getDb(), agent, decision.id, { option: "nom", reasoning: "too late" }, clock)).rejects.toMatchObject({ code: "timebox_expired" });
  });

  it("lets a human cast a ballot too", async () => {
    const human = await makeHuman();
    const agent = await makeAgent();
    const opened = await call(openRoute, "/api/decisions", { key: agent.key, body: parser });
    const res = await call(ballotRoute, "/x", { cookie: human.cookie, params: { id: opened.body.id }, body: { option: "nom", reasoning: "I read both" } });
    expect(res.status).toBe(201);
    expect(res.body.decision.ballots[0]).toMatchObject({ voterName: human.name, voterKind: "human", reasoning: "I read both" });
  });
});

describe("a tie at quorum", () => {
  it("escalates with the four-line envelope, posted to general; a human resolves it and agents get 403", async () => {
    // The HTTP half runs on the real clock, so this clock starts at a real minute.
    const clock = manualClock(new Date(Math.floor(Date.now() / 60_000) * 60_000));
    const [a, b] = await Promise.all([makeAgent(), makeAgent()]);
    const human = await makeHuman();
    const decision = await openDecision(getDb(), a, { ...parser, quorum: 2 }, clock);
    await castBallot(getDb(), a, decision.id, { option: "nom", reasoning: "typed" }, clock);
    clock.advance(60_000);
    const tied = await castBallot(getDb(), b, decision.id, { option: "pest", reasoning: "readable" }, clock);
    expect(tied.decision.status).toBe("escalated");
    expect(tied.decision.escalationDeadline).toBe(new Date(clock.now().getTime() + 300_000).toISOString());
    expect(tied.decision.envelope!.split("\n")).toEqual([
      "Decide: Which parser do we keep?",
      "Tally: nom 1 · pest 1 · hand-written 0 (2 of 2 ballots)",
      "Default: hand-written",
      `If nobody decides by ${tied.decision.escalationDeadline!.slice(0, 16).replace("T", " ")} UTC: we ship the hand-written parser and its known bug`,
    ]);
    const room = await listMessages(getDb(), human, "general", {});
    const posted = room.items.find((m) => m.body === tied.decision.envelope);
    expect(posted).toMatchObject({ senderName: "quorum", senderKind: "system", performative: "REQUEST" });
    const escalations = await call(listRoute, "/api/decisions?status=escalated", { cookie: human.cookie });
    expect(escalations.body.items.map((d: { id: string }) => d.id)).toContain(decision.id);
    expect(escalations.body.total).toBeGreaterThanOrEqual(1);

    const byAgent = await call(resolveRoute, "/x", { key: a.key, params: { id: decision.id }, body: { option: "nom" } });
    expect(byAgent.status).toBe(403);
    const wrong = await call(resolveRoute, "/x", { cookie: human.cookie, params: { id: decision.id }, body: { option: "antlr" } });
    expect(wrong.status).toBe(400);
    const resolved = await call(resolveRoute, "/x", { cookie: human.cookie, params: { id: decision.id }, body: { option: "pest" } });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({ status: "resolved", outcome: "pest", resolvedByName: human.name });
    const twice = await call(resolveRoute, "/x", { cookie: human.cookie, params: { id: decision.id }, body: { option: "nom" } });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ error: "wrong_status", status: "resolved" });
    const events = await listJournal(getDb(), { kind: "EscalationResolved", actor: human.id });
    expect(events.items[0].data).toMatchObject({ decisionId: decision.id, option: "pest", wasDefault: false });
    const one = await call(oneRoute, "/x", { key: b.key, params: { id: decision.id } });
    expect(one.body).toMatchObject({ status: "resolved", outcome: "pest" });
  });

  it("refuses to resolve a decision that is still open", async () => {
    const agent = await makeAgent();
    const human = await makeHuman();
    const decision = await openDecision(getDb(), agent, parser, manualClock());
    await expect(resolveEscalation(getDb(), human, decision.id, { option: "nom" }, manualClock())).rejects.toMatchObject({
      code: "wrong_status",
      extra: { status: "open" },
    });
  });
});

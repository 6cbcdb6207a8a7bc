// Issue 14 item 9 (board): a reopen needs evidence no submission or earlier reopen of the task already
// holds (case, spacing and invisible characters aside), and a cancel needs an ADR a reader can see.
import { describe, expect, it } from "vitest";
const claimRoute = apiHandler("POST", "/api/tasks/[id]/claim");
const submitRoute = apiHandler("POST", "/api/tasks/[id]/submit");
const reviewRoute = apiHandler("POST", "/api/tasks/[id]/review");
const reopenRoute = apiHandler("POST", "/api/tasks/[id]/reopen");
const cancelRoute = apiHandler("POST", "/api/tasks/[id]/cancel");
const createRoute = apiHandler("POST", "/api/tasks");
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { taskEventKinds } from "../../test/fixtures/board";
import { comparableText, visibleLength } from "../visible-text";
import { apiHandler } from "../../test/api";

const ZW = "\u200b";
const at = (id: string, op: string) => ({ path: `/api/tasks/${id}/${op}`, params: { id } });

async function board() {
  const [lead, ada] = [await makeHuman(), await makeAgent()];
  const create = await call(createRoute, "/api/tasks", { cookie: lead.cookie, body: { title: "Parse empty input", acceptanceCriteria: "parse('') returns []" } });
  expect(create.status).toBe(201);
  const id: string = create.body.id;
  /** Claim, submit with `evidence`, and have the lead review with `verdict`. */
  const round = async (evidence: string, verdict: "accept" | "reject") => {
    const claimed = await call(claimRoute, at(id, "claim").path, { key: ada.key, params: { id }, body: {} });
    const fence = claimed.status === 200 ? claimed.body.fence : undefined;
    const submitted = await call(submitRoute, at(id, "submit").path, { key: ada.key, params: { id }, body: { fence: fence ?? 1, summary: "done", evidence } });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    const review = verdict === "accept" ? { verdict } : { verdict, reason: "one test still fails" };
    expect((await call(reviewRoute, at(id, "review").path, { cookie: lead.cookie, params: { id }, body: review })).status).toBe(200);
  };
  const reopen = (evidence: string) => call(reopenRoute, at(id, "reopen").path, { cookie: lead.cookie, params: { id }, body: { evidence } });
  return { lead, ada, id, round, reopen };
}

describe("reopening on evidence already on record", () => {
  it("refuses the evidence of any earlier submission or reopen, re-cased, re-spaced or padded with zero-width characters", async () => {
    const { id, round, reopen } = await board();
    await round("Test run: 11 of 12 pass", "reject");
    await round("All 12 tests pass", "accept");
    for (const evidence of ["All 12 tests pass", "  all 12   TESTS pass ", `All${ZW} 12 tests\u00a0pass\ufeff`, "ALL 12 TESTS PASS\n", "test run: 11 of 12 pass"]) {
      const refused = await reopen(evidence);
      expect(refused.status, evidence).toBe(400);
      expect(refused.body).toMatchObject({ error: "invalid", message: expect.stringContaining("already on record"), issues: [{ path: ["evidence"] }] });
    }
    expect(await taskEventKinds(id)).not.toContain("TaskReopened");

    const reopened = await reopen("parse(' ') still throws TypeError");
    expect(reopened.status).toBe(200);
    expect(reopened.body.status).toBe("ready");
    // The reopen's own evidence is on record now too.
    await round("All 13 tests pass, the new one included", "accept");
    expect((await reopen("PARSE(' ') still throws TypeError")).status).toBe(400);
  });

  it("refuses evidence a reader cannot see", async () => {
    const { round, reopen } = await board();
    await round("All 12 tests pass", "accept");
    expect((await reopen(`${ZW}${ZW}\u2060\ufeff`)).status).toBe(400);
  });
});

describe("acceptance criteria a reader cannot see", () => {
  it("are no criteria: a task filed with zero-width criteria cannot be claimed", async () => {
    const [lead, ada] = [await makeHuman(), await makeAgent()];
    const create = await call(createRoute, "/api/tasks", { cookie: lead.cookie, body: { title: "Invisible done", acceptanceCriteria: `${ZW.repeat(6)}\u2060 ` } });
    expect(create.status).toBe(201);
    expect(create.body.acceptanceCriteria).toBeNull();
    const id: string = create.body.id;
    const claimed = await call(claimRoute, at(id, "claim").path, { key: ada.key, params: { id }, body: {} });
    expect(claimed.status).toBe(409);
    expect(claimed.body.error).toBe("no_acceptance_criteria");
  });
});

describe("cancelling with an invisible ADR", () => {
  it("refuses an ADR of zero-width characters, or one too short to say anything, and the task stays as it was", async () => {
    const { lead, id } = await board();
    const cancel = (adr: Record<string, string>) => call(cancelRoute, at(id, "cancel").path, { cookie: lead.cookie, params: { id }, body: { adr } });
    const invisible = `${ZW.repeat(8)}\u2060\ufeff\u200c\u200d`;
    const blank = await cancel({ title: invisible, context: invisible, decision: invisible, consequences: invisible });
    expect(blank.status).toBe(400);
    expect(blank.body.issues.map((i: { path: string[] }) => i.path.join("."))).toEqual(["adr.title", "adr.context", "adr.decision", "adr.consequences"]);
    // Blank "letters" and combining marks show nothing either; two visible characters are too few.
    expect((await cancel({ title: "\u3164\u3164\u3164\u2800", context: "Covered.", decision: "Cancel.", consequences: "None." })).status).toBe(400);
    expect((await cancel({ title: "Dup", context: "\u0301\u0301\u0301\u0301", decision: "Cancel.", consequences: "None." })).status).toBe(400);
    expect((await cancel({ title: `${ZW}ok${ZW}`, context: "Covered.", decision: "Cancel.", consequences: "None." })).status).toBe(400);
    expect(await taskEventKinds(id)).not.toContain("TaskCancelled");

    const ok = await cancel({ title: "Dup", context: "Covered by #12.", decision: "Cancel.", consequences: "n/a" });
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe("cancelled");
  });

  it("counts what a reader sees", () => {
    expect(visibleLength(`${ZW}\u2060\ufeff \t\n\u00a0\u3000`)).toBe(0);
    expect(visibleLength("résumé")).toBe(6);
    expect(visibleLength("日本語")).toBe(3);
    expect(visibleLength("😀")).toBe(1);
    expect(comparableText(" All\u00a012\u200b TESTS pass\n")).toBe(comparableText("all 12 tests pass"));
    expect(comparableText("all 12 tests pass")).not.toBe(comparableText("all 13 tests pass"));
  });
});

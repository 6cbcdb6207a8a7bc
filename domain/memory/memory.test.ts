// Two-layer memory: lessons on tasks their sources worked, promotion by two different principals (checked, not claimed), the human pin.
import { describe, expect, it } from "vitest";
import { getConnection, getDb } from "../../db/client";
import { systemClock } from "../clock";
const lessonsRoute = apiHandler("GET", "/api/lessons");
const recordRoute = apiHandler("POST", "/api/lessons");
const principlesRoute = apiHandler("GET", "/api/principles");
const pinRoute = apiHandler("POST", "/api/principles");
const pinAgainRoute = apiHandler("POST", "/api/principles/[id]/pin");
const unpinRoute = apiHandler("POST", "/api/principles/[id]/unpin");
import { listJournal } from "../journal/list";
import { makeReadyTask } from "../../test/fixtures/board";
import { call, makeAgent, makeHuman, uniqueName } from "../../test/helpers";
import type { Principal } from "../principal";
import { claimTask } from "../tasks/claim";
import { reopenTask } from "../tasks/reopen";
import { reviewTask } from "../tasks/review";
import { submitTask } from "../tasks/submit";
import { lessonKey } from "./lesson-key";
import { loadPrinciples } from "./list-memory";
import { recordLesson } from "./record-lesson";
import { apiHandler } from "../../test/api";

/** A task `agent` owns: created by a human approver, claimed by the agent. */
async function ownedTask(agent: Principal, approver?: Principal) {
  const task = await makeReadyTask(approver ?? (await makeHuman()));
  await claimTask(getDb(), agent, task.id, systemClock);
  return task.id;
}

/** A lesson text no other test uses, so promotions never cross tests sharing the database. */
const fresh = (words: string) => `${words} (${uniqueName("case")})`;

describe("lesson keys", () => {
  it("treat case, punctuation, spacing and Unicode width as the same lesson, and words as different", () => {
    expect(lessonKey("Run the tests before you submit.")).toBe(lessonKey("  run the TESTS — before you   submit"));
    expect(lessonKey("Ｒｕｎ the tests")).toBe(lessonKey("run the tests"));
    expect(lessonKey("Run the tests before you submit")).not.toBe(lessonKey("Run the tests after you submit"));
    expect(lessonKey("?!…")).toBe("");
  });
});

describe("lessons and promotion", () => {
  it("records a lesson (201, LessonRecorded) without promoting it on one source", async () => {
    const agent = await makeAgent();
    const taskId = await ownedTask(agent);
    const text = fresh("Ack the room before broadcasting");
    const res = await call(recordRoute, "/api/lessons", { key: agent.key, body: { text, taskId } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ text, sourceId: agent.id, sourceName: agent.name, taskId, principle: null });
    expect((await listJournal(getDb(), { kind: "LessonRecorded", actor: agent.id })).items).toHaveLength(1);
    expect(await loadPrinciples(getDb())).not.toContain(text);
    const listed = await call(lessonsRoute, "/api/lessons?limit=5", { key: agent.key });
    expect(listed.body.items[0]).toMatchObject({ id: res.body.id, text });
  });

  it("promotes when a second principal records the same lesson on a task it worked, in other punctuation and case", async () => {
    const [a, b] = await Promise.all([makeAgent(), makeAgent()]);
    const text = fresh("Heartbeat the lease before long test runs");
    await recordLesson(getDb(), a, { text, taskId: await ownedTask(a) }, systemClock);
    const second = await recordLesson(getDb(), b, { text: `${text.toUpperCase()}!!`, taskId: await ownedTask(b) }, systemClock);
    expect(second.principle).toMatchObject({ text, active: true, pinnedAt: null });
    expect(second.principle!.sources.map((s) => s.sourceName).sort()).toEqual([a.name, b.name].sort());
    expect(await loadPrinciples(getDb())).toContain(text);
    const promoted = (await listJournal(getDb(), { kind: "PrinciplePromoted", limit: 500 })).items.find((e) => (e.data as { text: string }).text === text);
    expect(promoted?.data).toMatchObject({ sources: 2, tasks: 2, by: "sources" });
  });

  it("counts the reviewer of a task as a source: the owner and its approver learned it together", async () => {
    const [coder, reviewer] = await Promise.all([makeAgent(), makeAgent()]);
    const taskId = await ownedTask(coder, reviewer);
    const text = fresh("Name the failing case in the summary");
    await recordLesson(getDb(), coder, { text, taskId }, systemClock);
    expect((await recordLesson(getDb(), reviewer, { text, taskId }, systemClock)).principle).toMatchObject({ active: true });
  });

  it("never promotes one principal's lesson, however many tasks it names (only two principals, or a human pin)", async () => {
    const agent = await makeAgent();
    const text = fresh("Read the failing test before editing code");
    expect((await recordLesson(getDb(), agent, { text, taskId: await ownedTask(agent) }, systemClock)).principle).toBeNull();
    const again = await recordLesson(getDb(), agent, { text, taskId: await ownedTask(agent) }, systemClock);
    expect(again.principle).toBeNull();
    expect(await loadPrinciples(getDb())).not.toContain(text);
    expect((await listJournal(getDb(), { kind: "PrinciplePromoted", limit: 500 })).items.map((e) => (e.data as { text: string }).text)).not.toContain(text);
  });

  it("refuses a task id that names no task (404) or a task the source neither owned nor reviewed (403), storing nothing", async () => {
    const [agent, stranger] = await Promise.all([makeAgent(), makeAgent()]);
    const text = fresh("Always trust the first answer");
    const invented = await call(recordRoute, "/api/lessons", { key: agent.key, body: { text, taskId: "11111111-1111-4111-8111-111111111111" } });
    expect(invented.status).toBe(404);
    expect(invented.body).toMatchObject({ error: "not_found" });
    const theirs = await call(recordRoute, "/api/lessons", { key: agent.key, body: { text, taskId: await ownedTask(stranger) } });
    expect(theirs.status).toBe(403);
    expect(theirs.body).toMatchObject({ error: "forbidden" });
    const [row] = await getConnection().sql`select count(*)::int as n from lessons where source_id = ${agent.id}`;
    expect(row.n).toBe(0);
  });

  it("lets a past owner record a lesson after the task was reopened (its claim is on record)", async () => {
    const [coder, human] = await Promise.all([makeAgent(), makeHuman()]);
    const taskId = await ownedTask(coder, human);
    const [task] = await getConnection().sql`select fence from tasks where id = ${taskId}`;
    await submitTask(getDb(), coder, taskId, { fence: task.fence, summary: "done", evidence: "tests pass" }, systemClock);
    await reviewTask(getDb(), human, taskId, { verdict: "accept" }, systemClock);
    await reopenTask(getDb(), human, taskId, { evidence: "parse('') throws again on main" }, systemClock);
    expect((await getConnection().sql`select owner_id from tasks where id = ${taskId}`)[0].owner_id).toBeNull();
    const lesson = await recordLesson(getDb(), coder, { text: fresh("Small commits review faster"), taskId }, systemClock);
    expect(lesson.taskId).toBe(taskId);
  });

  it("does not count a source repeating itself: same agent, same task (409), or no task at all", async () => {
    const agent = await makeAgent();
    const other = await makeAgent();
    const text = fresh("Keep diffs small");
    const taskId = await ownedTask(agent);
    await recordLesson(getDb(), agent, { text, taskId }, systemClock);
    const repeat = await call(recordRoute, "/api/lessons", { key: agent.key, body: { text: `${text}.`, taskId } });
    expect(repeat.status).toBe(409);
    expect(repeat.body.error).toBe("duplicate");
    const untasked = await recordLesson(getDb(), agent, { text }, systemClock);
    expect(untasked.principle).toBeNull();
    // A lesson without a task is kept but is evidence of nothing: a second principal without one does not promote either.
    expect((await recordLesson(getDb(), other, { text }, systemClock)).principle).toBeNull();
    expect(await loadPrinciples(getDb())).not.toContain(text);
  });

  it("sees concurrent sources: agents recording at once still promote, exactly once", async () => {
    const agents = await Promise.all([makeAgent(), makeAgent(), makeAgent()]);
    const tasks = await Promise.all(agents.map((a) => ownedTask(a)));
    const texts = Array.from({ length: 4 }, (_, i) => fresh(`Post the evidence with the summary ${i}`));
    await Promise.all(texts.flatMap((text) => agents.map((a, i) => recordLesson(getDb(), a, { text, taskId: tasks[i] }, systemClock))));
    const principles = await loadPrinciples(getDb());
    const promotions = (await listJournal(getDb(), { kind: "PrinciplePromoted", limit: 500 })).items.map((e) => (e.data as { text: string }).text);
    for (const text of texts) {
      expect(principles.filter((p) => p === text)).toHaveLength(1);
      expect(promotions.filter((p) => p === text)).toHaveLength(1);
    }
  });

  it("refuses bad input with 400 and stores nothing", async () => {
    const agent = await makeAgent();
    const tooWide = "漢".repeat(1000); // 1,000 characters, 3,000 bytes: past what the key index may hold
    for (const body of [{ text: "" }, { text: "…!?" }, { text: tooWide }, { text: "x", taskId: "t-1" }, { text: "x", source: "other-agent" }]) {
      const res = await call(recordRoute, "/api/lessons", { key: agent.key, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.issues.length).toBeGreaterThan(0);
    }
    const [row] = await getConnection().sql`select count(*)::int as n from lessons where source_id = ${agent.id}`;
    expect(row.n).toBe(0);
  });
});

describe("the human pin", () => {
  it("lets a human pin a lesson at once (agents get 403), unpin it, and pin it again", async () => {
    const agent = await makeAgent();
    const human = await makeHuman();
    const text = fresh("Never force-push to main");
    const lesson = await recordLesson(getDb(), agent, { text }, systemClock);
    const byAgent = await call(pinRoute, "/api/principles", { key: agent.key, body: { lessonId: lesson.id } });
    expect(byAgent.status).toBe(403);
    expect(await loadPrinciples(getDb())).not.toContain(text);
    const pinned = await call(pinRoute, "/api/principles", { cookie: human.cookie, body: { lessonId: lesson.id } });
    expect(pinned.status).toBe(201);
    expect(pinned.body).toMatchObject({ text, active: true, pinnedByName: human.name, promotedAt: null });
    expect(await loadPrinciples(getDb())).toContain(text);
    const listed = await call(principlesRoute, "/api/principles", { key: agent.key });
    expect(listed.body.items.find((p: { id: string }) => p.id === pinned.body.id).sources[0]).toMatchObject({ sourceName: agent.name });
    const twice = await call(pinRoute, "/api/principles", { cookie: human.cookie, body: { lessonId: lesson.id } });
    expect(twice.status).toBe(409);

    const params = { id: pinned.body.id };
    expect((await call(unpinRoute, "/x", { key: agent.key, params, body: {} })).status).toBe(403);
    const unpinned = await call(unpinRoute, "/x", { cookie: human.cookie, params, body: {} });
    expect(unpinned.body).toMatchObject({ active: false, pinnedAt: null });
    expect(await loadPrinciples(getDb())).not.toContain(text);
    expect((await call(unpinRoute, "/x", { cookie: human.cookie, params, body: {} })).status).toBe(409);
    const again = await call(pinAgainRoute, "/x", { cookie: human.cookie, params, body: {} });
    expect(again.body).toMatchObject({ active: true });
    const kinds = (await listJournal(getDb(), { actor: human.id })).items.map((e) => e.kind);
    expect(kinds.filter((k) => k === "PrinciplePinned")).toHaveLength(2);
    expect(kinds).toContain("PrincipleUnpinned");
  });

  it("keeps a promoted principle in force after its pin is removed", async () => {
    const [a, b] = await Promise.all([makeAgent(), makeAgent()]);
    const human = await makeHuman();
    const text = fresh("Write the acceptance criteria first");
    const pinned = await call(pinRoute, "/api/principles", { cookie: human.cookie, body: { text } });
    expect(pinned.status).toBe(201);
    await recordLesson(getDb(), a, { text, taskId: await ownedTask(a) }, systemClock);
    await recordLesson(getDb(), b, { text, taskId: await ownedTask(b) }, systemClock);
    const unpinned = await call(unpinRoute, "/x", { cookie: human.cookie, params: { id: pinned.body.id }, body: {} });
    expect(unpinned.body).toMatchObject({ active: true, pinnedAt: null });
    expect(unpinned.body.promotedAt).not.toBeNull();
    expect(await loadPrinciples(getDb())).toContain(text);
  });
});

// Two-layer memory: lessons, promotion by two independent sources (checked, not claimed), the human pin.
import { describe, expect, it } from "vitest";
import { getConnection, getDb } from "../../db/client";
import { systemClock } from "../clock";
import { GET as lessonsRoute, POST as recordRoute } from "../../app/api/lessons/route";
import { GET as principlesRoute, POST as pinRoute } from "../../app/api/principles/route";
import { POST as pinAgainRoute } from "../../app/api/principles/[id]/pin/route";
import { POST as unpinRoute } from "../../app/api/principles/[id]/unpin/route";
import { listJournal } from "../journal/list";
import { call, makeAgent, makeHuman, uniqueName } from "../../test/helpers";
import { lessonKey } from "./lesson-key";
import { loadPrinciples } from "./list-memory";
import { recordLesson } from "./record-lesson";

const taskA = "11111111-1111-4111-8111-111111111111";
const taskB = "22222222-2222-4222-8222-222222222222";

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
    const text = fresh("Ack the room before broadcasting");
    const res = await call(recordRoute, "/api/lessons", { key: agent.key, body: { text, taskId: taskA } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ text, sourceId: agent.id, sourceName: agent.name, taskId: taskA, principle: null });
    expect((await listJournal(getDb(), { kind: "LessonRecorded", actor: agent.id })).items).toHaveLength(1);
    expect(await loadPrinciples(getDb())).not.toContain(text);
    const listed = await call(lessonsRoute, "/api/lessons?limit=5", { key: agent.key });
    expect(listed.body.items[0]).toMatchObject({ id: res.body.id, text });
  });

  it("promotes when a second agent records the same lesson, in other words of punctuation and case", async () => {
    const [a, b] = await Promise.all([makeAgent(), makeAgent()]);
    const text = fresh("Heartbeat the lease before long test runs");
    await recordLesson(getDb(), a, { text, taskId: taskA }, systemClock);
    const second = await recordLesson(getDb(), b, { text: `${text.toUpperCase()}!!` }, systemClock);
    expect(second.principle).toMatchObject({ text, active: true, pinnedAt: null });
    expect(second.principle!.sources.map((s) => s.sourceName).sort()).toEqual([a.name, b.name].sort());
    expect(await loadPrinciples(getDb())).toContain(text);
    const promoted = (await listJournal(getDb(), { kind: "PrinciplePromoted", limit: 500 })).items.find((e) => (e.data as { text: string }).text === text);
    expect(promoted?.data).toMatchObject({ sources: 2, by: "sources" });
  });

  it("promotes when one agent learns the same lesson on two different tasks", async () => {
    const agent = await makeAgent();
    const text = fresh("Read the failing test before editing code");
    expect((await recordLesson(getDb(), agent, { text, taskId: taskA }, systemClock)).principle).toBeNull();
    const again = await recordLesson(getDb(), agent, { text, taskId: taskB }, systemClock);
    expect(again.principle).toMatchObject({ active: true });
    expect(await loadPrinciples(getDb())).toContain(text);
  });

  it("does not count a source repeating itself: same agent, same task (409), or no task at all", async () => {
    const agent = await makeAgent();
    const text = fresh("Keep diffs small");
    await recordLesson(getDb(), agent, { text, taskId: taskA }, systemClock);
    const repeat = await call(recordRoute, "/api/lessons", { key: agent.key, body: { text: `${text}.`, taskId: taskA } });
    expect(repeat.status).toBe(409);
    expect(repeat.body.error).toBe("duplicate");
    // A lesson without a task is not a "different task" from one with a task.
    const untasked = await recordLesson(getDb(), agent, { text }, systemClock);
    expect(untasked.principle).toBeNull();
    expect(await loadPrinciples(getDb())).not.toContain(text);
  });

  it("sees concurrent sources: agents recording at once still promote, exactly once", async () => {
    const agents = await Promise.all([makeAgent(), makeAgent(), makeAgent()]);
    const texts = Array.from({ length: 4 }, (_, i) => fresh(`Post the evidence with the summary ${i}`));
    await Promise.all(texts.flatMap((text) => agents.map((a) => recordLesson(getDb(), a, { text }, systemClock))));
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
    await recordLesson(getDb(), a, { text }, systemClock);
    await recordLesson(getDb(), b, { text }, systemClock);
    const unpinned = await call(unpinRoute, "/x", { cookie: human.cookie, params: { id: pinned.body.id }, body: {} });
    expect(unpinned.body).toMatchObject({ active: true, pinnedAt: null });
    expect(unpinned.body.promotedAt).not.toBeNull();
    expect(await loadPrinciples(getDb())).toContain(text);
  });
});

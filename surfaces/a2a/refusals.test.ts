// What the A2A endpoint refuses, and how: JSON-RPC errors with A2A's codes where A2A has them (-32700, -32601,
// -32602, -32001, -32002, -32004, -32005, -32009) and -31000 less REST's status where it has none (401, 403,
// 409, 413, 429), each carrying REST's body in a `quorum` ErrorInfo; never a 500, and a refusal writes nothing.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
const claimRoute = apiHandler("POST", "/api/tasks/[id]/claim");
const reviewRoute = apiHandler("POST", "/api/tasks/[id]/review");
const submitRoute = apiHandler("POST", "/api/tasks/[id]/submit");
import { getDb } from "../../db/client";
import { a2aFetch, message, rpc } from "../../test/a2a/client";
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { MAX_STREAMS_PER_PRINCIPAL, takeSlot } from "../../domain/journal/stream";
import { apiHandler } from "../../test/api";

const journalEnd = async () => Number((await getDb().execute(sql`select coalesce(max(id), 0) as m from events`))[0].m);
const send = (key: string, msg: object, extra: object = {}) => rpc(key, "SendMessage", { message: msg, configuration: { returnImmediately: true }, ...extra });
/** The quorum ErrorInfo's metadata of a JSON-RPC error. */
const quorumOf = (error: { data?: { domain: string; metadata: Record<string, string> }[] }) => error.data?.find((d) => d.domain === "quorum")?.metadata;

async function newTask(key: string, text = "A task", data?: Record<string, unknown>): Promise<{ id: string; number: number }> {
  const res = await send(key, message(text, data));
  return { id: res.body.result.task.id, number: res.body.result.task.metadata.quorum.number };
}

describe("the A2A endpoint refuses", () => {
  it("callers without a key (a cookie is not one), another site's page, and a body over 1 MiB, before any JSON-RPC runs", async () => {
    const human = await makeHuman();
    const agent = await makeAgent();
    const none = await rpc(undefined, "ListTasks", {});
    expect(none).toMatchObject({ status: 401, body: { jsonrpc: "2.0", error: { code: -31401 } } });
    expect(quorumOf(none.body.error)).toMatchObject({ error: "unauthorized", status: "401" });
    expect((await rpc("qk_forged", "ListTasks", {})).body.error).toMatchObject({ code: -31401, message: expect.stringMatching(/unknown or revoked/) });
    expect((await rpc(undefined, "ListTasks", {}, { cookie: human.cookie })).status).toBe(401);
    const foreign = await rpc(agent.key, "ListTasks", {}, { origin: "https://evil.example" });
    expect(foreign).toMatchObject({ status: 403, body: { error: { code: -31403 } } });
    const big = await a2aFetch(agent.key)("http://localhost/api/a2a", {
      method: "POST",
      headers: { "content-type": "application/json", "a2a-version": "1.0", host: "localhost" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message: message("x".repeat(1_100_000)) } }),
    });
    expect(big.status).toBe(413);
    expect((await big.json()).error).toMatchObject({ code: -31413 });
  });

  it("what is no A2A v1.0 JSON-RPC: not JSON, no A2A-Version (0.3), an unknown method", async () => {
    const agent = await makeAgent();
    const raw = await a2aFetch(agent.key)("http://localhost/api/a2a", {
      method: "POST",
      headers: { "content-type": "application/json", "a2a-version": "1.0", host: "localhost" },
      body: "{nope",
    });
    expect([raw.status, (await raw.json()).error.code]).toEqual([200, -32700]);
    expect((await rpc(agent.key, "ListTasks", {}, { "a2a-version": "" })).body.error).toMatchObject({ code: -32009, message: expect.stringMatching(/'0.3' is not supported/) });
    expect((await rpc(agent.key, "message/send", {})).body.error.code).toBe(-32601);
  });

  it("messages it cannot take, saying why, and files nothing", async () => {
    const agent = await makeAgent();
    const task = await newTask(agent.key);
    const before = await journalEnd();
    const refused = async (msg: object, extra: object = {}) => (await send(agent.key, msg, extra)).body.error;
    expect(await refused(message("more", undefined, { taskId: task.id }))).toMatchObject({ code: -32004, message: expect.stringMatching(/no follow-up messages/) });
    expect(await refused({ ...message("see file"), parts: [{ url: "https://example.com/a.txt" }] })).toMatchObject({ code: -32005 });
    expect(await refused(message("hi", undefined, { metadata: { skill: "everything" } }))).toMatchObject({ code: -32602, message: expect.stringMatching(/no skill 'everything'/) });
    const unknownField = await refused(message("a task", { owner: "me" }));
    expect(unknownField).toMatchObject({ code: -32602 });
    expect(JSON.parse(quorumOf(unknownField)?.issues ?? "[]")).toEqual([expect.objectContaining({ code: "unrecognized_keys" })]);
    expect(await refused(message(null, { acceptanceCriteria: "x" }))).toMatchObject({ code: -32602, message: expect.stringMatching(/no text/) });
    expect(await refused(message("nul \u0000 here"))).toMatchObject({ code: -32602 });
    expect(await refused(message("child", undefined, { contextId: "not-a-task" }))).toMatchObject({ code: -32602 });
    expect(await refused(message("child", undefined, { contextId: "00000000-0000-4000-8000-000000000000" }))).toMatchObject({ code: -32001 });
    // An agent no human allowed to start flights is refused before anything else is looked at.
    expect(await refused(message("a flight", { repo: "/nowhere" }, { metadata: { skill: "team" } }))).toMatchObject({
      code: -31403,
      message: expect.stringMatching(/may not start flights/),
    });
    expect(await journalEnd()).toBe(before);
  });

  it("tasks it cannot find or act on: GetTask and CancelTask as REST refuses them", async () => {
    const [human, agent, other] = [await makeHuman(), await makeAgent(), await makeAgent()];
    const task = await newTask(agent.key, "Keep me", { acceptanceCriteria: "kept", approverId: human.id });
    expect((await rpc(agent.key, "GetTask", { id: "00000000-0000-4000-8000-000000000000" })).body.error.code).toBe(-32001);
    expect((await rpc(agent.key, "GetTask", { id: `#${task.number}` })).body.result.id).toBe(task.id);
    const before = await journalEnd();
    const noAdr = (await rpc(agent.key, "CancelTask", { id: task.id })).body.error;
    expect(noAdr).toMatchObject({ code: -32602, message: expect.stringMatching(/needs an ADR in metadata.adr/) });
    const adr = { title: "Dup", context: "Filed twice.", decision: "Drop it.", consequences: "None." };
    expect((await rpc(other.key, "CancelTask", { id: task.id, metadata: { adr } })).body.error).toMatchObject({ code: -31403 });
    expect(await journalEnd()).toBe(before);
    // Done: past cancelling.
    const { body: claimed } = await call(claimRoute, `/api/tasks/${task.id}/claim`, { key: other.key, body: {}, params: { id: task.id } });
    await call(submitRoute, `/api/tasks/${task.id}/submit`, { key: other.key, body: { fence: claimed.fence, summary: "s", evidence: "e" }, params: { id: task.id } });
    await call(reviewRoute, `/api/tasks/${task.id}/review`, { cookie: human.cookie, body: { verdict: "accept" }, params: { id: task.id } });
    const done = (await rpc(agent.key, "CancelTask", { id: task.id, metadata: { adr } })).body.error;
    expect(done).toMatchObject({ code: -32002 });
    expect(quorumOf(done)).toMatchObject({ error: "wrong_status", status: "409" });
    // Nothing to follow on a task that has ended.
    expect((await rpc(agent.key, "SubscribeToTask", { id: task.id })).body.error.code).toBe(-32004);
    expect((await rpc(agent.key, "ListTasks", { pageSize: 0 })).body.error.code).toBe(-32602);
    expect((await rpc(agent.key, "ListTasks", { pageToken: "later" })).body.error.code).toBe(-32602);
  });

  it("a stream past the principal's stream slots, as /api/stream does (429)", async () => {
    const agent = await makeAgent();
    const task = await newTask(agent.key);
    const releases = Array.from({ length: MAX_STREAMS_PER_PRINCIPAL }, () => takeSlot(agent.id, () => {}));
    try {
      const refused = await rpc(agent.key, "SubscribeToTask", { id: task.id });
      expect(refused).toMatchObject({ status: 200, body: { error: { code: -31429 } } });
      expect(quorumOf(refused.body.error)).toMatchObject({ error: "too_many_streams" });
    } finally {
      for (const release of releases) release();
    }
  });
});

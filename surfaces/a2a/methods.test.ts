// A2A's methods through the A2A project's own client (ClientFactory, JSON-RPC), against the real route: a message
// becomes a task on the board as REST would file it; GetTask and ListTasks read the board; CancelTask cancels with
// the ADR it is given; SendStreamingMessage follows the task to INPUT_REQUIRED as agents claim and submit it over
// REST, SubscribeToTask carries on to COMPLETED when its human accepts, and a blocking SendMessage returns settled.
import { type StreamResponse, TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
const taskRoute = apiHandler("GET", "/api/tasks/[id]");
const claimRoute = apiHandler("POST", "/api/tasks/[id]/claim");
const reviewRoute = apiHandler("POST", "/api/tasks/[id]/review");
const submitRoute = apiHandler("POST", "/api/tasks/[id]/submit");
import { a2aClient, message, sendParams } from "../../test/a2a/client";
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { apiHandler } from "../../test/api";

const ADR = { title: "Superseded", context: "Filed twice.", decision: "Cancel this one.", consequences: "The other stands." };

/** Works a task over REST as another agent would: claim it, then submit. */
async function claim(key: string, id: string) {
  return (await call(claimRoute, `/api/tasks/${id}/claim`, { key, body: {}, params: { id } })).body as { fence: number };
}
async function submit(key: string, id: string, fence: number) {
  return call(submitRoute, `/api/tasks/${id}/submit`, { key, body: { fence, summary: "Parser ported", evidence: "42 tests pass" }, params: { id } });
}

const stateOf = (event: StreamResponse) =>
  event.payload?.$case === "task" ? event.payload.value.status?.state : event.payload?.$case === "statusUpdate" ? event.payload.value.status?.state : undefined;
const textOf = (event: StreamResponse) => {
  const status = event.payload?.$case === "task" ? event.payload.value.status : event.payload?.$case === "statusUpdate" ? event.payload.value.status : undefined;
  const part = status?.message?.parts[0]?.content;
  return part?.$case === "text" ? part.value : "";
};

describe("A2A over the SDK's client", () => {
  it("SendMessage files the text and data part as a task on the board, as REST would; GetTask and ListTasks read it back", async () => {
    const [human, caller] = [await makeHuman(), await makeAgent()];
    const client = await a2aClient(caller.key);
    const sent = await client.sendMessage(
      sendParams({
        message: message("Port the date parser\nTo Temporal, keeping the API.", { acceptanceCriteria: "the date tests pass", approverId: human.id }),
        configuration: { returnImmediately: true },
      }),
    );
    if (!("status" in sent)) throw new Error("a task, not a message");
    expect(sent.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    expect(sent.contextId).toBe(sent.id);
    const rest = await call(taskRoute, `/api/tasks/${sent.id}`, { key: caller.key, params: { id: sent.id } });
    expect(rest.body.task).toMatchObject({
      title: "Port the date parser",
      description: "Port the date parser\nTo Temporal, keeping the API.",
      acceptanceCriteria: "the date tests pass",
      approverId: human.id,
      createdBy: caller.id,
      status: "ready",
    });
    expect(sent.metadata?.quorum).toMatchObject({ number: rest.body.task.number, title: "Port the date parser", approverName: human.name });

    // A second task in its context (contextId: the first), and one of its own.
    const child = await client.sendMessage(
      sendParams({ message: message("Update the docs", { acceptanceCriteria: "README says Temporal" }, { contextId: sent.id }), configuration: { returnImmediately: true } }),
    );
    const other = await client.sendMessage(sendParams({ message: message("Unrelated"), configuration: { returnImmediately: true } }));
    if (!("status" in child) || !("status" in other)) throw new Error("tasks");
    expect(child.contextId).toBe(sent.id);
    expect((await client.getTask({ id: child.id, tenant: "" })).metadata?.quorum).toMatchObject({ title: "Update the docs" });
    const context = await client.listTasks({ contextId: sent.id, tenant: "", status: TaskState.TASK_STATE_UNSPECIFIED, pageToken: "", statusTimestampAfter: undefined });
    expect(context.tasks.map((t) => t.id).sort()).toEqual([sent.id, child.id].sort());
    expect(context.totalSize).toBe(2);
    // Pages of one, newest first, to the end.
    const first = await client.listTasks({ contextId: sent.id, tenant: "", status: TaskState.TASK_STATE_UNSPECIFIED, pageToken: "", pageSize: 1, statusTimestampAfter: undefined });
    expect(first.tasks.map((t) => t.id)).toEqual([child.id]);
    const second = await client.listTasks({
      contextId: sent.id,
      tenant: "",
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageToken: first.nextPageToken,
      pageSize: 1,
      statusTimestampAfter: undefined,
    });
    expect([second.tasks.map((t) => t.id), second.nextPageToken]).toEqual([[sent.id], ""]);
    // By state: the unrelated task is WORKING, nothing of it is COMPLETED yet.
    const working = await client.listTasks({ contextId: other.id, tenant: "", status: TaskState.TASK_STATE_WORKING, pageToken: "", statusTimestampAfter: undefined });
    expect(working.tasks.map((t) => t.id)).toEqual([other.id]);
    const completed = await client.listTasks({ contextId: other.id, tenant: "", status: TaskState.TASK_STATE_COMPLETED, pageToken: "", statusTimestampAfter: undefined });
    expect(completed.tasks).toEqual([]);
  });

  it("CancelTask cancels with the ADR in its metadata, as REST's cancel does", async () => {
    const caller = await makeAgent();
    const client = await a2aClient(caller.key);
    const sent = await client.sendMessage(sendParams({ message: message("A duplicate"), configuration: { returnImmediately: true } }));
    if (!("id" in sent) || !("status" in sent)) throw new Error("a task");
    const cancelled = await client.cancelTask({ id: sent.id, tenant: "", metadata: { adr: ADR } });
    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(textOf({ payload: { $case: "task", value: cancelled } })).toMatch(/was cancelled: Superseded/);
    const rest = await call(taskRoute, `/api/tasks/${sent.id}`, { key: caller.key, params: { id: sent.id } });
    expect(rest.body).toMatchObject({ task: { status: "cancelled" }, adr: { title: "Superseded", decision: "Cancel this one." } });
  });

  it("streams a task from WORKING to INPUT_REQUIRED as agents work it, then a subscription carries on to COMPLETED when its human accepts", async () => {
    const [human, caller, worker] = [await makeHuman(), await makeAgent(), await makeAgent()];
    const client = await a2aClient(caller.key);
    const stream = client
      .sendMessageStream(sendParams({ message: message("Port the parser", { acceptanceCriteria: "tests pass", approverId: human.id }) }))
      [Symbol.asyncIterator]();
    const first = await stream.next();
    if (first.done || first.value.payload?.$case !== "task") throw new Error("a stream opens with the task");
    const task = first.value.payload.value;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_WORKING);

    const { fence } = await claim(worker.key, task.id);
    const claimed = await stream.next();
    expect([claimed.done, claimed.value && stateOf(claimed.value), claimed.value && textOf(claimed.value)]).toEqual([
      false,
      TaskState.TASK_STATE_WORKING,
      expect.stringContaining(`in progress with ${worker.name}`),
    ]);
    expect((await submit(worker.key, task.id, fence)).status).toBe(200);
    const submitted = await stream.next();
    expect(submitted.value && stateOf(submitted.value)).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(submitted.value && textOf(submitted.value)).toBe(`#${task.metadata?.quorum.number} waits for ${human.name}'s review of ${worker.name}'s submission`);
    // INPUT_REQUIRED ends the send's stream (A2A: an interrupted state).
    expect((await stream.next()).done).toBe(true);

    const subscription = client.resubscribeTask({ id: task.id, tenant: "" })[Symbol.asyncIterator]();
    const now = await subscription.next();
    expect(now.value && stateOf(now.value)).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect((await call(reviewRoute, `/api/tasks/${task.id}/review`, { cookie: human.cookie, body: { verdict: "accept" }, params: { id: task.id } })).status).toBe(200);
    const done = await subscription.next();
    expect(done.value && stateOf(done.value)).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(done.value && textOf(done.value)).toBe(`#${task.metadata?.quorum.number} was accepted by ${human.name}`);
    expect((await subscription.next()).done).toBe(true);
    // The submission on record comes back as an artifact.
    const read = await client.getTask({ id: task.id, tenant: "" });
    expect(read.artifacts.map((a) => [a.name, a.parts.map((p) => (p.content?.$case === "text" ? p.content.value : ""))])).toEqual([
      [`Submission by ${worker.name}`, ["Parser ported", "42 tests pass"]],
    ]);
  });

  it("a blocking SendMessage (A2A's default) returns once the task waits for its approver", async () => {
    const [human, caller, worker] = [await makeHuman(), await makeAgent(), await makeAgent()];
    const client = await a2aClient(caller.key, { polling: false });
    const before = Date.now();
    const answer = client.sendMessage(sendParams({ message: message(`Blocking ${before}`, { acceptanceCriteria: "done", approverId: human.id }) }));
    // The worker finds the task on the board (the newest ready one titled so) and works it.
    let id: string | undefined;
    for (let tries = 0; !id && tries < 100; tries++) {
      const listed = await (await a2aClient(worker.key)).listTasks({
        contextId: "",
        tenant: "",
        status: TaskState.TASK_STATE_WORKING,
        pageToken: "",
        statusTimestampAfter: undefined,
      });
      id = listed.tasks.find((t) => t.metadata?.quorum.title === `Blocking ${before}`)?.id;
      if (!id) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (!id) throw new Error("the blocking send filed no task");
    const { fence } = await claim(worker.key, id);
    await submit(worker.key, id, fence);
    const settled = await answer;
    expect("status" in settled && settled.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  });
});

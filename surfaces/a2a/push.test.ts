// A2A push notification configs go through the webhook machinery: a config is an endpoint bound to its task; each
// change of the task's A2A status reaches the receiver once (a heartbeat, which changes nothing, sends nothing), as
// A2A's StreamResponse JSON with the token and Authorization asked for, signed (Standard Webhooks) with the token;
// configs are the agent's own; deleting one stops it; and an address inside the network is refused unless allowed.
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
const claimRoute = apiHandler("POST", "/api/tasks/[id]/claim");
const heartbeatRoute = apiHandler("POST", "/api/tasks/[id]/heartbeat");
const submitRoute = apiHandler("POST", "/api/tasks/[id]/submit");
import { getDb } from "../../db/client";
import { message, rpc } from "../../test/a2a/client";
import { startReceiver } from "../../test/fixtures/webhook-receiver";
import { call, makeAgent, makeHuman } from "../../test/helpers";
import { systemClock } from "../../domain/clock";
import { deliverWebhooks } from "../../domain/webhooks/deliver";
import { queuePushes } from "../../domain/webhooks/a2a-push";
import { renderPush } from "./push-render";
import { apiHandler } from "../../test/api";

const TOKEN = "tok-a2a-receiver-7";
const receiver = await startReceiver(() => `whsec_${Buffer.from(TOKEN).toString("base64")}`);
afterAll(() => receiver.close());

/** One pass of the webhooks sweeper: pushes queued, then sent (to this machine, as the tests' receiver lives here). */
const sweep = async (allowInward = true) => {
  await queuePushes(getDb(), systemClock, renderPush);
  return deliverWebhooks(getDb(), systemClock, { allowInward });
};

async function newTask(key: string, approverId: string) {
  const sent = await rpc(key, "SendMessage", { message: message("Push me", { acceptanceCriteria: "done", approverId }), configuration: { returnImmediately: true } });
  return sent.body.result.task as { id: string; metadata: { quorum: { number: number } } };
}

describe("A2A push notification configs", () => {
  it("tell the receiver each change of the task's status once, as A2A's JSON with its token and Authorization, signed", async () => {
    const [human, agent, worker] = [await makeHuman(), await makeAgent(), await makeAgent()];
    const task = await newTask(agent.key, human.id);
    const created = await rpc(agent.key, "CreateTaskPushNotificationConfig", {
      taskId: task.id,
      url: receiver.url,
      token: TOKEN,
      authentication: { scheme: "Bearer", credentials: "receiver-secret" },
    });
    expect(created.body.result).toMatchObject({
      taskId: task.id,
      url: receiver.url,
      token: TOKEN,
      id: expect.any(String),
      authentication: { scheme: "Bearer", credentials: "receiver-secret" },
    });
    const configId = created.body.result.id;
    const start = receiver.received.length;

    await sweep();
    const { body: claimed } = await call(claimRoute, `/api/tasks/${task.id}/claim`, { key: worker.key, body: {}, params: { id: task.id } });
    await sweep();
    // A heartbeat is an event about the task that changes nothing A2A shows: nothing is sent for it.
    expect((await call(heartbeatRoute, `/api/tasks/${task.id}/heartbeat`, { key: worker.key, body: { fence: claimed.fence }, params: { id: task.id } })).status).toBe(200);
    await sweep();
    await call(submitRoute, `/api/tasks/${task.id}/submit`, { key: worker.key, body: { fence: claimed.fence, summary: "done", evidence: "tests pass" }, params: { id: task.id } });
    await sweep();

    const mine = receiver.received.slice(start);
    const states = mine.map((r) => JSON.parse(r.body).statusUpdate.status.state);
    expect(states).toEqual(["TASK_STATE_WORKING", "TASK_STATE_WORKING", "TASK_STATE_INPUT_REQUIRED"]);
    expect(JSON.parse(mine[1].body).statusUpdate.status.message.parts[0].text).toMatch(`in progress with ${worker.name}`);
    for (const r of mine) {
      expect(r.error, "signed with the token").toBeNull();
      expect(r.headers).toMatchObject({ "content-type": "application/a2a+json", "x-a2a-notification-token": TOKEN, authorization: "Bearer receiver-secret" });
      expect(JSON.parse(r.body).statusUpdate).toMatchObject({ taskId: task.id, contextId: task.id });
    }

    // Another agent does not see the config; its owner lists, reads and deletes it, and then nothing more is sent.
    expect((await rpc(worker.key, "GetTaskPushNotificationConfig", { taskId: task.id, id: configId })).body.error.code).toBe(-32001);
    // (proto JSON leaves an empty list out)
    expect((await rpc(worker.key, "ListTaskPushNotificationConfigs", { taskId: task.id })).body.result.configs ?? []).toEqual([]);
    expect((await rpc(agent.key, "ListTaskPushNotificationConfigs", { taskId: task.id })).body.result.configs.map((c: { id: string }) => c.id)).toEqual([configId]);
    expect((await rpc(agent.key, "GetTaskPushNotificationConfig", { taskId: task.id, id: configId })).body.result.url).toBe(receiver.url);
    expect((await rpc(agent.key, "DeleteTaskPushNotificationConfig", { taskId: task.id, id: configId })).body).toMatchObject({ result: null });
    await call(apiHandler("POST", "/api/tasks/[id]/review"), `/api/tasks/${task.id}/review`, {
      cookie: human.cookie,
      body: { verdict: "accept" },
      params: { id: task.id },
    });
    await sweep();
    expect(receiver.received.length - start).toBe(3);

    // The journal names the endpoint by host, never its token or credentials.
    const journalled = await getDb().execute<{ kind: string; data: unknown }>(sql`select kind, data from events where task_id = ${task.id} and kind like 'Webhook%' order by id`);
    expect(journalled.map((e) => e.kind)).toEqual(["WebhookAdded", "WebhookRemoved"]);
    expect(JSON.stringify(journalled)).not.toMatch(/tok-a2a|receiver-secret/);
  });

  it("come with SendMessage too, and go only outside the network unless a hub allows inward addresses", async () => {
    const [human, agent] = [await makeHuman(), await makeAgent()];
    const sent = await rpc(agent.key, "SendMessage", {
      message: message("Pushed from the start", { acceptanceCriteria: "done", approverId: human.id }),
      configuration: { returnImmediately: true, taskPushNotificationConfig: { url: receiver.url, token: TOKEN } },
    });
    const taskId = sent.body.result.task.id;
    expect((await rpc(agent.key, "ListTaskPushNotificationConfigs", { taskId })).body.result.configs).toHaveLength(1);
    const start = receiver.received.length;
    const refused = await sweep(false);
    expect(refused).toMatchObject({ delivered: 0, failed: 1 });
    const [delivery] = await getDb().execute<{ last_error: string }>(
      sql`select d.last_error from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id where e.task_id = ${taskId}`,
    );
    expect(delivery.last_error).toMatch(/^refused: the address is inside this network/);
    expect(receiver.received.length).toBe(start);
    // Bad configs are refused as a bad parameter.
    expect((await rpc(agent.key, "CreateTaskPushNotificationConfig", { taskId, url: "ftp://example.com/x" })).body.error.code).toBe(-32602);
    expect((await rpc(agent.key, "CreateTaskPushNotificationConfig", { taskId: "00000000-0000-4000-8000-000000000000", url: receiver.url })).body.error.code).toBe(-32001);
  });
});

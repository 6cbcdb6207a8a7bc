// An agent framework delegates to Quorum over A2A with the A2A project's own client, against a real `quorum start`:
// it reads the agent card, sends a task and streams it — WORKING while an agent claims and submits it, then
// INPUT_REQUIRED — a human accepts it in the browser's review dialog, and a re-subscription sees COMPLETED.
import { type StreamResponse, SendMessageRequest, TaskState } from "@a2a-js/sdk";
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } from "@a2a-js/sdk/client";
import { expect, test, uniqueName } from "./fixtures";

const stateOf = (event: StreamResponse) =>
  event.payload?.$case === "task" ? event.payload.value.status?.state : event.payload?.$case === "statusUpdate" ? event.payload.value.status?.state : undefined;

test("send, stream until INPUT_REQUIRED, a human's review in the browser, and the subscription reaches COMPLETED", async ({
  page,
  baseURL,
  signIn,
  registerAgent,
  asAgent,
  snap,
}) => {
  test.setTimeout(120_000);
  await signIn(page);
  const me = await (await page.request.get("/api/me")).json();
  const [delegator, worker] = [await registerAgent(uniqueName("crew"), "delegator"), await registerAgent()];

  // docs/API.md's recipe: the SDK finds the card at the base URL, and every request carries the key.
  const fetchImpl: typeof fetch = (url, init) => fetch(url, { ...init, headers: { ...init?.headers, authorization: `Bearer ${delegator.key}` } });
  const client = await new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  ).createFromUrl(baseURL);
  const title = `Port the parser over A2A ${Date.now()}`;
  const request = SendMessageRequest.fromJSON({
    message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts: [{ text: title }, { data: { acceptanceCriteria: "the parser tests pass", approverId: me.id } }] },
  });
  const stream = client.sendMessageStream(request)[Symbol.asyncIterator]();
  const first = await stream.next();
  if (first.done || first.value.payload?.$case !== "task") throw new Error("the stream opens with the task");
  const task = first.value.payload.value;
  expect(task.status?.state).toBe(TaskState.TASK_STATE_WORKING);

  // Another agent works it over REST, as any agent would.
  const claimed = await asAgent(worker).post(`/api/tasks/${task.id}/claim`);
  expect(claimed.status).toBe(200);
  expect((await asAgent(worker).post(`/api/tasks/${task.id}/submit`, { fence: claimed.body.fence, summary: "Ported", evidence: "12 tests pass" })).status).toBe(200);
  const states: (TaskState | undefined)[] = [task.status?.state];
  for (let next = await stream.next(); !next.done; next = await stream.next()) states.push(stateOf(next.value));
  expect(states).toEqual([TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_INPUT_REQUIRED]);

  const subscription = client.resubscribeTask({ id: task.id, tenant: "" })[Symbol.asyncIterator]();
  const now = await subscription.next();
  expect(now.value && stateOf(now.value)).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  const completed = subscription.next();

  // The human reviews it in the browser, from the board's review column.
  await page.goto("/board");
  const card = page.getByTestId("column-review").getByTestId("task-card").filter({ hasText: title });
  await expect(card).toBeVisible();
  await card.click();
  const drawer = page.getByTestId("task-drawer");
  await expect(drawer.getByTestId("evidence")).toContainText("12 tests pass");
  await drawer.getByRole("button", { name: "Review" }).click();
  const review = page.getByRole("dialog", { name: /Review #/ });
  await review.getByLabel(/Approve/).check();
  await snap(page, "a2a-review");
  await review.getByRole("button", { name: "Approve" }).click();
  await expect(review).toBeHidden();

  const done = await completed;
  expect(done.value && stateOf(done.value)).toBe(TaskState.TASK_STATE_COMPLETED);
  expect((await subscription.next()).done).toBe(true);
  const read = await client.getTask({ id: task.id, tenant: "" });
  expect(read.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  expect(read.artifacts[0]?.name).toBe(`Submission by ${worker.name}`);
});

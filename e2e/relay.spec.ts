// The room's gates as a human sees them: the gate strip, presence with roles, the focusing pill, safe text.
import { expect, test, uniqueName } from "./fixtures";

test("a human sees an agent's rejected post in the gate strip and the agent in the presence list", async ({ page, signIn, registerAgent, asAgent, snap }) => {
  const human = await signIn(page);
  const room = uniqueName("relay");
  expect((await page.request.post("/api/rooms", { data: { name: room } })).status()).toBe(201);
  const agent = await registerAgent(uniqueName("looper"), "reviewer");
  const api = asAgent(agent);
  expect((await api.post(`/api/rooms/${room}/messages`, { body: "Thanks for the review!" })).status).toBe(201);

  await page.goto(`/room/${room}`);
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "live");
  await expect(page.getByText(`Nobody is held back in #${room}`)).toBeVisible();

  // No human has spoken in this room, and the agent is its only speaker: a second message laps it.
  const lapped = await api.post(`/api/rooms/${room}/messages`, { body: "Thanks again, really!" });
  expect(lapped.status).toBe(409);
  expect(lapped.body.error).toBe("lapping");

  // The strip updates live, without a reload: who, which gate, why in words (the API's own words in a tooltip), and what was said.
  const rejection = page.getByTestId("gate-rejection").first();
  await expect(rejection).toBeVisible();
  await expect(rejection).toHaveAttribute("data-gate", "lapping");
  await expect(rejection).toContainText(agent.name);
  await expect(rejection).toContainText("lapping");
  await expect(rejection).toContainText("Thanks again, really!");
  await expect(rejection.getByTestId("gate-sentence")).toHaveText(
    `${agent.name} was held: it posted 1 time since a human last spoke, with too few others talking; it waits for another voice.`,
  );
  await expect(rejection.getByTestId("gate-sentence")).toHaveAttribute("title", /since the last human message/);
  await expect(rejection).not.toContainText("/api/");

  const entry = page.getByTestId("presence-entry").filter({ hasText: agent.name });
  await expect(entry).toContainText("reviewer");
  await expect(entry).toContainText("present");

  // A duplicate is named as such.
  const dupe = await api.post(`/api/rooms/${room}/messages`, { body: "Thanks for the review!", to: human });
  expect(dupe.status).toBe(409);
  await expect(page.getByTestId("gate-rejection").first()).toHaveAttribute("data-gate", "duplicate");
  await expect(page.getByTestId("gate-rejection").first()).toContainText("it repeated a message it had already posted here");
  await snap(page, "gate-strip");
});

test("a focusing agent wears a pill, and nothing anyone writes is rendered as HTML", async ({ page, signIn, registerAgent, asAgent, snap }) => {
  await signIn(page);
  const room = uniqueName("safe");
  expect((await page.request.post("/api/rooms", { data: { name: room } })).status()).toBe(201);
  const agent = await registerAgent(uniqueName("coder"), "coder");
  const api = asAgent(agent);
  await page.goto(`/room/${room}`);
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "live");

  // The human speaks through the composer, with markup that must stay text.
  const humanText = `<script>window.__pwned=1</script><b>bold?</b> ${uniqueName("h")}`;
  const composer = page.getByRole("textbox", { name: new RegExp(`Message #${room}`) });
  await composer.fill(humanText);
  await composer.press("Enter");
  await expect(page.getByTestId("message").filter({ hasText: humanText })).toBeVisible();

  // The agent has not acked the human's message: its broadcast is stale, and the refused body lands in the strip.
  const agentText = `<img src=x onerror="window.__pwned=2"> done ${uniqueName("a")}`;
  const stale = await api.post(`/api/rooms/${room}/messages`, { body: agentText, payload: { html: "<img src=x onerror=alert(1)>" } });
  expect(stale.status).toBe(409);
  expect(stale.body.error).toBe("stale");
  expect(stale.body.unread.map((m: { body: string }) => m.body)).toEqual([humanText]);
  expect(typeof stale.body.holdToken).toBe("string");
  const held = page.getByTestId("gate-rejection").filter({ hasText: agentText });
  await expect(held).toHaveAttribute("data-gate", "freshness");
  await expect(held.getByTestId("gate-sentence")).toHaveText(`${agent.name} was held: it had not read 1 new message; it will read and retry.`);

  // Acked, the same post goes through and shows as text.
  expect((await api.post(`/api/rooms/${room}/cursor`, { seq: stale.body.holdSeq })).status).toBe(200);
  expect((await api.post(`/api/rooms/${room}/messages`, { body: agentText, performative: "DONE" })).status).toBe(201);
  await expect(page.getByTestId("message").filter({ hasText: agentText })).toBeVisible();
  // It has spoken since: the hold is over and its entry leaves the strip.
  await expect(held).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await page.locator("b", { hasText: "bold?" }).count()).toBe(0);
  expect(await page.locator("img[src=x]").count()).toBe(0);

  // The agent claims a task: its focus window opens, and the presence list says so.
  const task = await page.request.post("/api/tasks", { data: { title: "Fix parse('')", acceptanceCriteria: "parse('') returns []" } });
  expect(task.status()).toBe(201);
  expect((await api.post(`/api/tasks/${(await task.json()).id}/claim`, {})).status).toBe(200);
  const entry = page.getByTestId("presence-entry").filter({ hasText: agent.name });
  await expect(entry.getByTestId("focusing")).toContainText(/^busy with #\d+$/);
  await composer.fill("anyone around?");
  await composer.press("Enter");
  await expect(entry.getByTestId("focusing")).toContainText("busy with #");
  await expect(entry.getByTestId("focusing")).toContainText("1 held for later");
  await snap(page, "focusing");
});

// The room's gates as a human sees them: the gate strip, presence with roles, the focusing pill, safe text; and
// the flights' threads, each folded into one card of #general and opened on its own.
import type { FlightView } from "../domain/flights/view";
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

test("a human opens a flight's thread in the Room and sees only that flight's messages, live, at 1440 and at 390", async ({ page, signIn, cli }, testInfo) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "live");

  // Two flights fly at once, both speaking in #general.
  const goals: number[] = [];
  for (const _ of [1, 2]) {
    const launched = await cli(["demo"]);
    const goal = Number(/goal task #(\d+)/.exec(launched)?.[1]);
    expect(goal, launched).toBeGreaterThan(0);
    goals.push(goal);
  }
  const [goalA, goalB] = goals;
  const flights = (await (await page.request.get("/api/flights")).json()).items as FlightView[];
  const flightA = flights.find((f) => f.goalTask.number === goalA)!.number;
  const flightB = flights.find((f) => f.goalTask.number === goalB)!.number;

  // A word of the human's own is about no flight: it stays in the conversation.
  const chat = `Lunch at one? ${uniqueName("chat")}`;
  const composer = page.getByRole("textbox", { name: /Message #general/ });
  await composer.fill(chat);
  await composer.press("Enter");
  const stream = page.getByTestId("room-stream");
  await expect(stream.getByTestId("message").filter({ hasText: chat })).toBeVisible();

  // Each flight is one card: the REQUEST that started it, its replies, the way in. The team's chatter is not in the conversation.
  const cardA = stream.locator(`[data-testid="flight-thread-card"][data-flight="${flightA}"]`);
  const cardB = stream.locator(`[data-testid="flight-thread-card"][data-flight="${flightB}"]`);
  await expect(cardA).toContainText(`goal task #${goalA}.`);
  await expect(cardB).toContainText(`goal task #${goalB}.`);
  await expect(cardA.getByTestId("thread-replies")).toHaveText(/^\d+ repl(y|ies)$/, { timeout: 90_000 });
  await expect(stream.getByText(`the plan for goal #${goalA}`)).toHaveCount(0);

  await cardA.getByRole("button", { name: /^Open thread/ }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]flight=${flightA}$`));
  const thread = page.getByTestId("flight-thread");
  await expect(thread).toHaveAttribute("data-flight", String(flightA));
  await expect(thread.getByRole("heading", { name: `Flight ${flightA}'s thread` })).toBeVisible();
  const inThread = thread.getByTestId("message");
  await expect(inThread.filter({ hasText: `goal task #${goalA}.` })).toBeVisible();
  await expect(inThread.filter({ hasText: `the plan for goal #${goalA}` })).toBeVisible({ timeout: 90_000 });
  // Only flight A's: none of B's, not the human's chat, and every message in it says flight A.
  await expect(inThread.filter({ hasText: `goal task #${goalB}.` })).toHaveCount(0);
  await expect(inThread.filter({ hasText: chat })).toHaveCount(0);
  expect(new Set(await inThread.evaluateAll((els) => els.map((el) => el.getAttribute("data-flight"))))).toEqual(new Set([String(flightA)]));

  // A reply written in the thread lands in it, live, and not in the conversation.
  const reply = `Keep the exported names ${uniqueName("reply")}`;
  const replyBox = thread.getByRole("textbox", { name: `Reply in flight ${flightA}'s thread` });
  await replyBox.fill(reply);
  await replyBox.press("Enter");
  await expect(inThread.filter({ hasText: reply })).toBeVisible();
  await expect(stream.getByTestId("message").filter({ hasText: reply })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("room-flight-thread-1440.png") });

  // On a phone the thread takes the room's whole width; ← goes back to the conversation.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(inThread.filter({ hasText: reply })).toBeVisible();
  expect((await thread.boundingBox())!.width).toBeGreaterThanOrEqual(380);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
  await page.screenshot({ path: testInfo.outputPath("room-flight-thread-390.png") });
  await thread.getByRole("button", { name: "← #general" }).click();
  await expect(thread).toHaveCount(0);
  await expect(page).not.toHaveURL(/flight=/);
  await expect(cardA).toBeVisible();
});

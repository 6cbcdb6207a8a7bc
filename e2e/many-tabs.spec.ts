// A hub kept open all day: ten tabs of one browser share one live stream, so the browser's six
// connections per host (HTTP/1.1) are not used up by streams, every page a tab opens loads, and every
// tab stays live. The walk goes by full loads (an address typed or a bookmark) and by the rail's links.
import type { BrowserContext, Page } from "@playwright/test";
import { expect, test, uniqueName } from "./fixtures";

const WALK = ["/room", "/board", "/decisions", "/commitments", "/bill", "/journal", "/agents", "/principles", "/settings", "/room/general", "/board", "/bill"];

/** Opens a page and waits until its data has come back, not just its HTML. */
async function openLoaded(tab: Page, path: string): Promise<void> {
  const me = tab.waitForResponse((response) => new URL(response.url()).pathname === "/api/me" && response.ok(), { timeout: 10_000 });
  await tab.goto(path, { timeout: 10_000 });
  await me;
  await expect(tab.getByTestId("live-status"), `${path} is live`).toHaveAttribute("data-status", "live");
}

/** Streams requested by the tabs themselves (the shared worker's own requests are not a tab's). */
function countTabStreams(context: BrowserContext): () => number {
  let opened = 0;
  context.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/stream") opened++;
  });
  return () => opened;
}

test("ten tabs share one stream: a twelve-page walk in one of them loads every page, and all ten stay live", async ({ page, signIn, registerAgent, asAgent, context }) => {
  // Ten tabs and a twelve-page walk, each page waited on until live: on two busy cores it has taken 1.9 and 2.2 min.
  test.setTimeout(240_000);
  await signIn(page);
  const room = uniqueName("tabs");
  expect((await page.request.post("/api/rooms", { data: { name: room } })).status()).toBe(201);

  const streamsOpenedByTabs = countTabStreams(context);
  const tabs = [page];
  for (let i = 1; i < 10; i++) tabs.push(await context.newPage());
  for (const [i, tab] of tabs.entries()) await openLoaded(tab, i % 2 === 0 ? `/room/${room}` : WALK[i % WALK.length]);

  // The walk in one tab: twelve full loads, then back through the rail without reloading.
  const walker = tabs[1];
  for (const path of WALK) await openLoaded(walker, path);
  const rail = walker.getByRole("navigation", { name: "Pages" });
  for (const label of ["Room", "Board", "Bill", "Journal", "Agents", "Settings"]) {
    await rail.getByRole("link", { name: new RegExp(`^${label}`) }).click();
    await expect(walker).toHaveTitle(`${label} · Quorum`);
  }

  // Every tab still hears the journal: a post lands in the rooms they show.
  const agent = await registerAgent();
  const said = `Still live after the walk ${uniqueName("m")}`;
  expect((await asAgent(agent).post(`/api/rooms/${room}/messages`, { body: said })).status).toBe(201);
  for (const [i, tab] of tabs.entries()) {
    if (i % 2 === 0) await expect(tab.getByText(said), `tab ${i} shows the post`).toBeVisible();
    await expect(tab.getByTestId("live-status"), `tab ${i} is live`).toHaveAttribute("data-status", "live");
  }

  // The stream is the browser's, not a tab's: no tab opened one of its own, yet all ten are live,
  // past the server's eight streams per principal as well as the browser's six connections per host.
  expect(streamsOpenedByTabs(), "streams the tabs opened themselves").toBe(0);
});

test("when the first tab closes, the one left stays live on the shared stream", async ({ page, signIn, registerAgent, asAgent, context }) => {
  await signIn(page);
  const room = uniqueName("handover");
  expect((await page.request.post("/api/rooms", { data: { name: room } })).status()).toBe(201);
  await openLoaded(page, `/room/${room}`);
  const second = await context.newPage();
  await openLoaded(second, `/room/${room}`);
  await page.close();
  const agent = await registerAgent();
  const said = `Heard after the first tab closed ${uniqueName("m")}`;
  expect((await asAgent(agent).post(`/api/rooms/${room}/messages`, { body: said })).status).toBe(201);
  await expect(second.getByText(said)).toBeVisible();
  await expect(second.getByTestId("live-status")).toHaveAttribute("data-status", "live");
});

test("a browser without shared workers holds the stream in the tab, and stays live", async ({ page, signIn, registerAgent, asAgent }) => {
  const streamsOpenedByTabs = countTabStreams(page.context());
  await page.addInitScript(() => {
    Reflect.deleteProperty(window, "SharedWorker");
  });
  await signIn(page);
  const room = uniqueName("alone");
  expect((await page.request.post("/api/rooms", { data: { name: room } })).status()).toBe(201);
  await openLoaded(page, `/room/${room}`);
  const said = `Heard in a tab of its own ${uniqueName("m")}`;
  expect((await asAgent(await registerAgent()).post(`/api/rooms/${room}/messages`, { body: said })).status).toBe(201);
  await expect(page.getByText(said)).toBeVisible();
  expect(streamsOpenedByTabs()).toBeGreaterThan(0);
});

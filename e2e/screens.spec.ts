// Every page at a phone's 390×844 and a desktop's 1440×900: a screenshot of each, and nothing may scroll
// sideways (the document is never wider than the window). The pages come from the rail itself, so a new
// page is covered the day it gets its line there. Screenshots: test-results/screens/<page>-<width>.png.
import { join } from "node:path";
import { chromium, type Page } from "@playwright/test";
import { type AgentApi, expect, test, uniqueName, type ResponseBody } from "./fixtures";
import config from "../playwright.config";

const SIZES = [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
] as const;

function fileOf(path: string, width: number): string {
  // Ids stay out of the names: /agents/<id> is agent-detail, /board?task=<id> is board-drawer.
  const name = path.startsWith("/agents/")
    ? "agent-detail"
    : path.startsWith("/board?")
      ? "board-drawer"
      : /^\/board\/\d+$/.test(path)
        ? "board-task-page"
        : path.replace(/^\//, "").replace(/[^a-z0-9]+/gi, "-");
  return join("test-results", "screens", `${name}-${width}.png`);
}

/** Something on each page (an agent with a task in review), then every page to visit: the rail's and a few deeper ones. */
async function pagesToVisit(page: Page, agent: { id: string }, api: AgentApi): Promise<string[]> {
  const task: ResponseBody = await (await page.request.post("/api/tasks", { data: { title: `Screens ${uniqueName("t")}`, acceptanceCriteria: "it fits" } })).json();
  const claimed = await api.post(`/api/tasks/${task.id}/claim`);
  await api.post(`/api/tasks/${task.id}/submit`, { fence: claimed.body.fence, summary: "fits", evidence: "✓ 1 passed" });
  // A task held under a long title: the roster's lease column must not widen the page for it.
  const held: ResponseBody = await (
    await page.request.post("/api/tasks", { data: { title: `Screens ${"with a title long enough to fill a row ".repeat(4)}${uniqueName("t")}`, acceptanceCriteria: "it fits" } })
  ).json();
  expect((await api.post(`/api/tasks/${held.id}/claim`)).status).toBe(200);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/room");
  const rail = page.getByRole("navigation", { name: "Pages" });
  const hrefs = await rail.getByRole("link").evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
  const paths = [
    ...new Set([
      ...hrefs.filter((h) => h.startsWith("/")),
      "/room/general",
      "/decisions/escalations",
      `/agents/${agent.id}`,
      `/board?task=${task.id}`,
      `/board/${task.number}`,
      "/no-such-page",
    ]),
  ];
  expect(paths.length).toBeGreaterThanOrEqual(10);
  return paths;
}

/** Opens a page and waits until it has drawn its data. */
async function openSettled(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.getByTestId("top-strip")).toBeVisible();
  await expect(page.locator("main [aria-busy=true]")).toHaveCount(0);
}

// One test per size (a phone, a desktop), so the two run side by side on the suite's workers.
for (const size of SIZES) {
  test(`every page fits ${size.width}×${size.height}, with no sideways scroll`, async ({ page, signIn, registerAgent, asAgent, baseURL }) => {
    test.setTimeout(180_000);
    await signIn(page, uniqueName("screens"));
    const agent = await registerAgent(uniqueName("coder"), "coder");
    const paths = await pagesToVisit(page, agent, asAgent(agent));

    const overflowing: string[] = [];
    await page.setViewportSize(size);
    for (const path of paths) {
      await openSettled(page, `${baseURL}${path}`);
      const { scrollWidth, innerWidth, culprit } = await page.evaluate(() => {
        // The outermost element that reaches past the window's right edge, to name in the failure.
        const clipped = (el: Element) => {
          // An absolutely placed element escapes a scroller that is not positioned: only a positioned one clips it.
          const position = getComputedStyle(el).position;
          if (position === "fixed") return true;
          let contained = position !== "absolute";
          for (let up = el.parentElement; up; up = up.parentElement) {
            const style = getComputedStyle(up);
            if (contained && style.overflowX !== "visible") return true;
            if (style.position !== "static") contained = true;
          }
          return false;
        };
        const past = [...document.querySelectorAll("body *")].find((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && !clipped(el));
        const name = past ? `${past.tagName.toLowerCase()}${past.id ? `#${past.id}` : ""}.${String(past.getAttribute("class") ?? "").replace(/\s+/g, ".")}` : "";
        return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, culprit: name };
      });
      if (scrollWidth > innerWidth) overflowing.push(`${path} at ${size.width} px is ${scrollWidth} px wide (${culprit})`);
      await page.screenshot({ path: fileOf(path, size.width) });
    }
    expect(overflowing).toEqual([]);
  });
}

test("at 1440×900 with ordinary scrollbars, no page and no scroller in it scrolls sideways", async ({ signIn, registerAgent, asAgent, baseURL }) => {
  test.setTimeout(180_000);
  // Playwright's headless Chromium hides scrollbars, which then take no room: this one draws them as a desktop does.
  const launch = config.use?.launchOptions ?? {};
  const browser = await chromium.launch({ ...launch, ignoreDefaultArgs: ["--hide-scrollbars"] });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, baseURL });
    await signIn(page, uniqueName("scrollbars"));
    const agent = await registerAgent(uniqueName("coder"), "coder");
    const paths = await pagesToVisit(page, agent, asAgent(agent));
    const gutter = await page.evaluate(() => {
      const probe = document.createElement("div");
      probe.style.cssText = "position:absolute;top:-999px;width:100px;height:100px;overflow:scroll";
      document.body.append(probe);
      const width = probe.offsetWidth - probe.clientWidth;
      probe.remove();
      return width;
    });
    expect(gutter, "this Chromium draws scrollbars that take room").toBeGreaterThan(0);
    const sideways: string[] = [];
    for (const path of paths) {
      await openSettled(page, path);
      const found = await page.evaluate(() => {
        const name = (el: Element) =>
          `${el.tagName.toLowerCase()}${el.getAttribute("data-testid") ? `[data-testid=${el.getAttribute("data-testid")}]` : ""}.${String(el.getAttribute("class") ?? "")
            .split(/\s+/)
            .slice(0, 4)
            .join(".")}`;
        const scrollers = [document.documentElement, ...document.querySelectorAll("body *")].filter((el) => {
          const overflow = getComputedStyle(el).overflowX;
          return el === document.documentElement || overflow === "auto" || overflow === "scroll";
        });
        return scrollers.filter((el) => el.scrollWidth > el.clientWidth).map((el) => `${name(el)} ${el.scrollWidth} > ${el.clientWidth}`);
      });
      for (const line of found) sideways.push(`${path}: ${line}`);
    }
    expect(sideways).toEqual([]);
    await page.goto("/board");
    await page.screenshot({ path: join("test-results", "screens", "board-1440-scrollbars.png") });
  } finally {
    await browser.close();
  }
});

test("on a phone the rail is a drawer behind the menu button, and the board shows one column at a time", async ({ page, signIn }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, uniqueName("phone"));
  await page.goto("/room");
  const rail = page.getByRole("navigation", { name: "Pages" });
  await expect(rail).toBeHidden();
  // Escape closes the drawer, as it does every menu.
  await page.getByRole("button", { name: "Pages" }).click();
  await expect(rail).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(rail).toBeHidden();
  await page.getByRole("button", { name: "Pages" }).click();
  await expect(rail).toBeVisible();
  await rail.getByRole("link", { name: /^Board/ }).click();
  await expect(page).toHaveURL(/\/board$/);
  await expect(rail).toBeHidden();
  // One column fills the width; the next is a swipe away.
  const column = page.getByTestId("column-ready");
  const box = (await column.boundingBox())!;
  expect(box.width).toBeGreaterThan(340);
  // The composer spans the room's width.
  await page.goto("/room");
  const composer = page.getByRole("textbox", { name: /Message #general/ });
  expect((await composer.boundingBox())!.width).toBeGreaterThan(340);
  // The Bill's chart is drawn at the phone's width: its axis labels keep a readable size.
  await page.goto("/bill");
  const label = page.getByTestId("spend-chart").locator("text").first();
  await expect(label).toBeVisible();
  expect((await label.boundingBox())!.height, "an axis label's height in CSS pixels").toBeGreaterThanOrEqual(10);
  await page.goto("/room");
  // Rooms and people open from buttons.
  await page.getByRole("button", { name: "Rooms" }).click();
  await expect(page.getByTestId("room-panel-rooms").getByRole("link", { name: "# general" })).toBeVisible();
});

test("signed out on a phone, the sign-in page's command stays inside its box", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/welcome");
  const command = page.getByText("npm run quorum -- human add YOUR_NAME");
  await expect(command).toBeVisible();
  // The command wraps at its spaces rather than running past the grey box and the card around it.
  expect(await command.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: join("test-results", "screens", "welcome-390.png") });
});

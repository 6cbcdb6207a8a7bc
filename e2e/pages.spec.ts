// Every page, walked twice: at 1440×900 with ordinary scrollbars in the light theme, and in the dark theme at a
// phone's 390×844 and again at 1440. On each visit the walk checks what a person would notice: the page answers
// and names itself in the tab, runs under the Content-Security-Policy without a blocked script or an uncaught
// error, passes axe (WCAG 2 A and AA: no serious or critical violation), and nothing scrolls sideways; a
// screenshot of each lands in test-results/screens/<page>-<width>.png.
import { join } from "node:path";
import { chromium } from "@playwright/test";
import config from "../playwright.config";
import { expect, test, uniqueName } from "./fixtures";
import { axeFindings, COLOUR_RULES, documentOverflow, openSettled, pagesToVisit, screenshotFile, sidewaysScrollers } from "./page-walk";

// Each walk visits every page and runs axe on each: on two busy cores that is minutes, not the default one.
const WALK_MS = 240_000;

// The walks read pages holding what pagesToVisit adds, a fixed amount, not whatever the shared Quorum holds by the
// time they run (which grew with every spec added before them).
test.use({ privateHub: true });
// Each walk on its own hub, so the two may run side by side rather than one after the other at the run's end.
test.describe.configure({ mode: "parallel" });

test("at 1440×900 with scrollbars, every page answers, has its title, runs under the CSP, passes axe and scrolls nowhere sideways", async ({
  signIn,
  registerAgent,
  asAgent,
  baseURL,
}) => {
  test.setTimeout(WALK_MS);
  // Playwright's headless Chromium hides scrollbars, which then take no room: this one draws them as a desktop does.
  const browser = await chromium.launch({ ...(config.use?.launchOptions ?? {}), ignoreDefaultArgs: ["--hide-scrollbars"] });
  try {
    // A context of its own, not browser.newPage(): axe runs in the page's frames through its context.
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, baseURL, colorScheme: "light" });
    const page = await context.newPage();
    const problems: string[] = [];
    // The browser reports each blocked script, style, frame or connection as an event and on the console.
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (e) => console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || "(inline)"}`));
    });
    page.on("console", (message) => {
      if (/Content[- ]Security[- ]Policy|CSP violation|Refused to (load|execute|apply|connect|frame)/i.test(message.text()))
        problems.push(`${page.url()}: ${message.text().slice(0, 200)}`);
    });
    page.on("pageerror", (error) => problems.push(`${page.url()}: uncaught ${error.message.slice(0, 200)}`));
    await signIn(page, uniqueName("walker"));
    const agent = await registerAgent(uniqueName("coder"), "coder");
    const visits = await pagesToVisit(page, agent, asAgent(agent));
    const gutter = await page.evaluate(() => {
      const probe = document.createElement("div");
      probe.style.cssText = "position:absolute;top:-999px;width:100px;height:100px;overflow:scroll";
      document.body.append(probe);
      const width = probe.offsetWidth - probe.clientWidth;
      probe.remove();
      return width;
    });
    expect(gutter, "this Chromium draws scrollbars that take room").toBeGreaterThan(0);

    for (const { path, title } of visits) {
      const status = await openSettled(page, path);
      if (status !== (path === "/no-such-page" ? 404 : 200)) problems.push(`${path}: answered ${status}`);
      if (title && (await page.title()) !== title) problems.push(`${path}: titled "${await page.title()}", not "${title}"`);
      problems.push(...(await axeFindings(page, `${path} (light)`)));
      for (const line of await sidewaysScrollers(page)) problems.push(`${path}: scrolls sideways: ${line}`);
      await page.screenshot({ path: screenshotFile(path, 1440) });
    }
    // Hydrated and live: client-side navigation through the rail works (a blocked inline script would stop it).
    await page.goto("/room");
    await page
      .getByRole("navigation", { name: "Pages" })
      .getByRole("link", { name: /^Board\b/ })
      .click();
    await expect(page).toHaveURL(/\/board$/);
    await page.screenshot({ path: join("test-results", "screens", "board-1440-scrollbars.png") });
    expect(problems).toEqual([]);
  } finally {
    await browser.close();
  }
});

test("in the dark theme, every page fits a phone's 390×844 and its colours pass axe at 1440×900", async ({ page, signIn, registerAgent, asAgent }) => {
  test.setTimeout(WALK_MS);
  await page.emulateMedia({ colorScheme: "dark" });
  await signIn(page, uniqueName("walker"));
  const agent = await registerAgent(uniqueName("coder"), "coder");
  const visits = await pagesToVisit(page, agent, asAgent(agent));
  const problems: string[] = [];
  for (const { path } of visits) {
    // Opened at the phone's size, as a phone would: a layout chosen when the page mounts is the phone's.
    await page.setViewportSize({ width: 390, height: 844 });
    await openSettled(page, path);
    const overflow = await documentOverflow(page);
    if (overflow) problems.push(`${path} at 390 px is ${overflow}`);
    await page.screenshot({ path: screenshotFile(path, 390) });
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect(page.getByRole("navigation", { name: "Pages" })).toBeVisible();
    // The light walk runs every rule on the same pages; the dark theme changes only their colours.
    problems.push(...(await axeFindings(page, `${path} (dark)`, COLOUR_RULES)));
  }
  expect(problems).toEqual([]);
});

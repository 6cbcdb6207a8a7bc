// Each page names itself in the tab ("Board · Quorum"), and the sign-in page sends a signed-in human on to the Room.
import { expect, test } from "./fixtures";

test("every page of the rail has its own title, and so do a room, a task and a lost address", async ({ page, signIn }) => {
  // A walk of every page, like the axe and screenshot walks: on two busy cores it once ran past the default minute.
  test.setTimeout(180_000);
  await signIn(page);
  await page.goto("/room");
  const rail = page.getByRole("navigation", { name: "Pages" });
  const pages = await rail
    .getByRole("link")
    .evaluateAll((links) => links.map((a) => ({ href: new URL((a as HTMLAnchorElement).href).pathname, label: (a.textContent ?? "").replace(/\d+/g, "").trim() })));
  expect(pages.length).toBeGreaterThanOrEqual(9);
  for (const { href, label } of pages) {
    await page.goto(href);
    await expect(page, href).toHaveTitle(`${label} · Quorum`);
  }
  await page.goto("/room/general");
  await expect(page).toHaveTitle("#general · Room · Quorum");
  await page.goto("/board/1");
  await expect(page).toHaveTitle("#1 · Board · Quorum");
  await page.goto("/no-such-page");
  await expect(page).toHaveTitle("Not found · Quorum");
});

test("a signed-in human who opens the sign-in page goes on to the Room", async ({ page, signIn }) => {
  await signIn(page);
  await page.goto("/welcome");
  await expect(page).toHaveURL(/\/room$/);
  await expect(page.getByText("Sign in to Quorum")).toHaveCount(0);
});

test("the API reference's curl lines name this server, not a fixed port", async ({ page, signIn, baseURL }) => {
  await signIn(page);
  await page.goto("/reference/api");
  await expect(page.locator("#getHealth pre").filter({ hasText: "curl" })).toContainText(`curl -s '${baseURL}/api/health'`);
  await expect(page.getByText("127.0.0.1:3000")).toHaveCount(0);
});

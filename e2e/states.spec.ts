// Every state designed: the frame draws before the server answers, a failure is one banner with Retry, a
// lost page is a branded 404, the tab has an icon, and a spent sign-in link says what happened.
import { expect, test, uniqueName } from "./fixtures";

test("a used sign-in link says it was used and how to get a new one", async ({ page, browser, cli }) => {
  const link = (await cli(["human", "add", uniqueName("twice")])).trim();
  await page.goto(link);
  await expect(page).toHaveURL(/\/room$/);
  const other = await browser.newContext();
  const again = await other.newPage();
  await again.goto(link);
  await expect(again).toHaveURL(/\/welcome\?link=used$/);
  await expect(again.getByTestId("refused-link")).toHaveText("That sign-in link was already used: each link signs in once.");
  await expect(again.getByText("npm run quorum -- human add YOUR_NAME")).toBeVisible();
  await again.goto(link.replace(/token=.*/, "token=qs_not-a-real-token"));
  await expect(again.getByTestId("refused-link")).toContainText("not one Quorum issued");
  await other.close();
});

test("a lost address is a branded 404 with the way back, and the tab has an icon", async ({ page, signIn }) => {
  await signIn(page);
  await page.goto("/no-such-page");
  await expect(page.getByRole("heading", { name: "Nothing here" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Pages" })).toBeVisible();
  await page.getByRole("link", { name: "Back to the Room" }).click();
  await expect(page).toHaveURL(/\/room$/);
  const icon = await page.locator('link[rel="icon"]').first().getAttribute("href");
  expect(icon).toBeTruthy();
  const served = await page.request.get(icon!);
  expect(served.status()).toBe(200);
  expect(served.headers()["content-type"]).toMatch(/^image\/(svg\+xml|x-icon|vnd.microsoft.icon)/); // the .ico beside the SVG comes first
});

test("the frame draws before /api/me answers, and a page's failures are one banner with Retry", async ({ page, signIn }) => {
  test.setTimeout(90_000);
  await signIn(page);
  // /api/me answers late: the rail and a skeleton are there first.
  let releaseMe = () => {};
  const meHeld = new Promise<void>((resolve) => (releaseMe = resolve));
  await page.route("**/api/me", async (route) => {
    await meHeld;
    await route.continue();
  });
  await page.goto("/bill");
  await expect(page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: /^Board/ })).toBeVisible();
  await expect(page.locator("main [aria-busy=true]")).toBeVisible();
  releaseMe();
  await expect(page.getByTestId("signed-in-as")).toBeVisible();
  await page.unroute("**/api/me");

  // Every Board column fails to load: one banner says so, once, and Retry brings the columns back.
  await page.route("**/api/tasks?status=*", (route) =>
    route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ error: "unavailable", message: "the database is restarting" }) }),
  );
  await page.goto("/board");
  const banner = page.getByTestId("page-error");
  await expect(banner).toHaveCount(1, { timeout: 30_000 });
  await expect(banner).toContainText("parts of this page could not load: the database is restarting");
  await page.unroute("**/api/tasks?status=*");
  await banner.getByRole("button", { name: "Retry" }).click();
  await expect(banner).toHaveCount(0);
  await expect(page.getByTestId("column-ready")).not.toContainText("Not loaded.");
});

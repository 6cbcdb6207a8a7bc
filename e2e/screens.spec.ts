// A phone's own layout: the rail behind a menu button, one board column at a time, and the sign-in page's
// command inside its box. Every page's fit at 390 and 1440 is walked in e2e/pages.spec.ts.
import { join } from "node:path";
import { expect, test, uniqueName } from "./fixtures";

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

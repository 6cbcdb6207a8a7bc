// The sign-in page sends a signed-in human on to the Room; the API reference speaks of this server. (Every page's
// title is checked on the walk in e2e/pages.spec.ts.)
import { expect, test } from "./fixtures";

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

// The first flight as a human sees it: the team fixes a failing test live, and the human accepts the goal.
import { expect, test } from "./fixtures";

test("a human watches the built-in team fix the failing test, then accepts the goal", async ({ page, signIn, cli, snap }) => {
  test.setTimeout(180_000);
  await signIn(page, "operator");
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "live");

  const launched = await cli(["demo"]);
  const goalNumber = /goal task #(\d+)/.exec(launched)?.[1];
  expect(goalNumber, launched).toBeTruthy();

  // The room fills as the roles work: the coder's DONE, the reviewer's ACCEPT, the tester's green suite.
  const messages = page.getByTestId("message");
  // Quorum speaks for the CLI, naming who started the flight; the human never appears to say it.
  const started = page.getByRole("article").filter({ hasText: `Demo flight started by operator from the CLI, goal task #${goalNumber}.` });
  await expect(started.getByTestId("sender").first()).toHaveText("quorum");
  // No model is configured here: the Room says the team is scripted.
  await expect(page.getByTestId("scripted-note")).toContainText("Scripted team: agents follow a fixed script and won't answer chat");
  await expect(messages.filter({ hasText: /is ready for review/ }).last()).toBeVisible({ timeout: 90_000 });
  await expect(messages.filter({ hasText: /ACCEPT task #\d+ \(review/ }).last()).toBeVisible({ timeout: 90_000 });
  await expect(messages.filter({ hasText: /The suite passes on quorum\/flight-\d+/ }).last()).toBeVisible({ timeout: 90_000 });
  await snap(page, "flight-room");

  // The goal waits for the human who set it, with the tester's output as evidence.
  await page.getByRole("link", { name: "Board" }).click();
  const goal = page
    .getByTestId("column-review")
    .getByTestId("task-card")
    .filter({ hasText: `#${goalNumber}` });
  await expect(goal).toBeVisible({ timeout: 30_000 });
  await snap(page, "flight-board");
  await goal.click();
  const drawer = page.getByTestId("task-drawer");
  await expect(drawer.getByTestId("evidence")).toContainText("passed");
  // The review reads like a pull request: the goal's combined change, file by file, with +/− counts.
  await expect(drawer.getByTestId("diff")).toContainText(/\d+ files? changed, \+\d+ −\d+ — quorum\/flight-\d+ against the commit the flight started from/);
  await expect(drawer.getByTestId("diff-file").first()).toBeVisible();
  await drawer.getByRole("link", { name: "Open as a page" }).click();
  await expect(page).toHaveURL(new RegExp(`/board/${goalNumber}$`));
  await expect(page.getByTestId("diff-file").first()).toContainText(/\+\d+ −\d+/);
  await expect(page.getByTestId("task-page").getByTestId("evidence")).toContainText("passed");
  // Beside the change, its tests: what was red at the base commit is the goal's target, fixed on the branch.
  const tests = page.getByTestId("task-page").getByTestId("task-tests");
  await expect(tests.getByTestId("tests-fixed")).toContainText("an empty input has no rows");
  await expect(tests.getByTestId("tests-refusal")).toHaveCount(0);
  await page.setViewportSize({ width: 1440, height: 900 });
  await snap(page, "flight-review-page-1440");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(tests.getByTestId("tests-fixed")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
  await snap(page, "flight-review-page-390");
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goBack();
  await goal.click();
  await drawer.getByRole("button", { name: "Review" }).click();
  const review = page.getByRole("dialog", { name: /Review #/ });
  await review.getByLabel(/Accept/).check();
  await review.getByRole("button", { name: "Accept" }).click();
  await expect(
    page
      .getByTestId("column-done")
      .getByTestId("task-card")
      .filter({ hasText: `#${goalNumber}` }),
  ).toBeVisible();
  await snap(page, "flight-accepted");
});

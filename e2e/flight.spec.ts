// The first flight as a human sees it: the team fixes a failing test live, the human accepts the goal and
// merges it; a second flight is closed without merging.
import { execFileSync } from "node:child_process";
import type { FlightView } from "../domain/flights/view";
import { expect, test } from "./fixtures";

test("a human watches the built-in team fix the failing test, then accepts the goal", async ({ page, signIn, cli, snap }) => {
  test.setTimeout(180_000);
  await signIn(page, "operator");
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "live");

  const launched = await cli(["demo"]);
  const goalNumber = /goal task #(\d+)/.exec(launched)?.[1];
  expect(goalNumber, launched).toBeTruthy();

  // Quorum speaks for the CLI, naming who started the flight; the human never appears to say it. The flight is
  // one card in the Room's conversation, and its thread fills as the roles work: the coder's DONE, the
  // reviewer's ACCEPT, the tester's green suite.
  const started = page.getByTestId("flight-thread-card").filter({ hasText: `Demo flight started by operator from the CLI, goal task #${goalNumber}.` });
  await expect(started.getByTestId("sender").first()).toHaveText("quorum");
  // No model is configured here: the Room says the team is scripted.
  await expect(page.getByTestId("scripted-note")).toContainText("Scripted team: agents follow a fixed script and won't answer chat");
  await started.getByRole("button", { name: /^Open thread/ }).click();
  const messages = page.getByTestId("flight-thread").getByTestId("message");
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
  await review.getByLabel(/Approve/).check();
  await review.getByRole("button", { name: "Approve" }).click();
  await expect(
    page
      .getByTestId("column-done")
      .getByTestId("task-card")
      .filter({ hasText: `#${goalNumber}` }),
  ).toBeVisible();
  await snap(page, "flight-accepted");

  // Accepted is not the end: the goal's page merges the branch into main, a fast-forward in the demo's repository.
  await page.goto(`/board/${goalNumber}`);
  const panel = page.getByTestId("flight-merge");
  await expect(panel.getByTestId("flight-stage")).toHaveText("Accepted, not merged yet");
  await panel.getByRole("button", { name: "Merge into main" }).click();
  await expect(panel.getByTestId("flight-stage")).toHaveText("Merged");
  const flight = (await (await page.request.get("/api/flights")).json()).items.find((f: FlightView) => f.goalTask.number === Number(goalNumber)) as FlightView;
  expect(flight).toMatchObject({ stage: "merged", finished: true, merged: { into: "main" } });
  const main = execFileSync("git", ["-C", flight.source!, "rev-parse", "main"], { encoding: "utf8" }).trim();
  expect(main).toBe(flight.merged!.commit);
  await expect(panel.getByTestId("flight-merged")).toContainText(`Merged into main at ${main.slice(0, 7)}`);
});

test("a human closes a flight without merging: its goal is cancelled with the reason, and the Board folds it away", async ({ page, signIn, cli }) => {
  test.setTimeout(180_000);
  await signIn(page, "operator");
  const launched = await cli(["demo"]);
  const goalNumber = /goal task #(\d+)/.exec(launched)?.[1];
  expect(goalNumber, launched).toBeTruthy();
  await page.goto(`/board/${goalNumber}`);
  const panel = page.getByTestId("flight-merge");
  await expect(panel.getByTestId("flight-stage")).toHaveText("Waiting for your review", { timeout: 120_000 });
  const number = /Flight (\d+)/.exec((await panel.textContent()) ?? "")?.[1];

  await panel.getByRole("button", { name: "Close without merging" }).click();
  const dialog = page.getByRole("dialog", { name: `Close flight ${number} without merging` });
  await expect(dialog).toContainText(`Goal #${goalNumber} is cancelled, with your reason as its decision record.`);
  await dialog.getByRole("button", { name: "Close flight" }).click();
  await expect(dialog).toContainText("Say in a few words why it closes without merging.");
  await dialog.getByLabel("Why").fill("We fixed the parser another way.");
  await dialog.getByRole("button", { name: "Close flight" }).click();
  await expect(dialog).toBeHidden();
  await expect(panel.getByTestId("flight-closed")).toContainText("Closed without merging");
  await expect(panel.getByTestId("flight-closed")).toContainText("We fixed the parser another way.");
  await expect(page.getByTestId("task-page").getByTestId("adr")).toContainText("We fixed the parser another way.");

  await page.goto("/board");
  await expect(page.locator(`[data-testid="flight"][data-flight-number="${number}"]`)).toHaveCount(0);
  await page.getByTestId("flights-finished").click();
  await expect(page.locator(`[data-testid="flight"][data-flight-number="${number}"]`).getByTestId("flight-stage")).toHaveText("Closed");
});

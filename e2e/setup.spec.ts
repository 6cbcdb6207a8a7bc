// A flight's setup as a user meets it (issue 42): New flight shows the setup the repository asks for; the
// flight's card says "Setting up" with the setup's latest line while it runs, live, then how long it took;
// the goal's page shows the setup. A setup that fails hands the flight back, and its log is on the goal's page.
import type { Page } from "@playwright/test";
import { acceptingReviewer, fixtureRepo, slowSetupRepo } from "../test/fixtures/repos";
import { withTeamHub } from "./team-hub";
import { expect, test } from "./fixtures";

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

async function fitsTheWidth(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
}

test("a flight's setup shows live on its card and its goal's page; a failed one hands the flight back with its log", async ({ page, snap }) => {
  test.setTimeout(300_000);
  const fixture = slowSetupRepo();
  await withTeamHub(page, { orchestrator: fixture.orchestrator, coder: fixture.coder, reviewer: acceptingReviewer }, async (server) => {
    await page.goto(`${server.baseURL}/board`);

    await page.getByRole("button", { name: "New flight" }).click();
    const dialog = page.getByRole("dialog", { name: "New flight" });
    await dialog.getByLabel("Repository folder").fill(fixture.repo);
    await dialog.getByLabel("Goal").fill(fixture.goal);
    await expect(dialog.getByLabel("Setup command")).toHaveValue("sh .quorum/setup");
    await expect(dialog.getByText(/The repository's own \.quorum\/setup\. It runs once before anyone works/)).toBeVisible();
    await dialog.getByRole("button", { name: "Start flight" }).click();
    await expect(dialog).toBeHidden();
    await page.keyboard.press("Escape");

    // While it runs: "Setting up", and the setup's own words moving on the card without a reload.
    const flight = page.getByTestId("flight").first();
    await expect(flight).toContainText("Setting up", { timeout: 30_000 });
    const line = flight.getByTestId("flight-setup");
    await expect(line).toHaveAttribute("data-setup", "running");
    await expect(line).toContainText(/installing: step [2-4] of 6/, { timeout: 15_000 });
    await snap(page, "setup-running-1440");
    await page.setViewportSize(PHONE);
    await fitsTheWidth(page);
    await snap(page, "setup-running-390");
    await page.setViewportSize(DESKTOP);
    await expect(line).toContainText(/installing: step [5-6] of 6/, { timeout: 15_000 });

    // Then done, and the flight works on: the suite goes green with what the setup installed.
    await expect(line).toHaveAttribute("data-setup", "done", { timeout: 30_000 });
    await expect(line).toContainText(/set up in \d+ s \(sh \.quorum\/setup\)/);
    await expect(flight).toHaveAttribute("data-status", "green", { timeout: 120_000 });
    await snap(page, "setup-done-1440");
    await flight.click();
    await expect(page.getByTestId("setup-panel")).toContainText("sh .quorum/setup (the repository's .quorum/setup)");
    await expect(page.getByTestId("setup-state")).toContainText(/Done in \d+ s; every worktree of the flight shares what it installed/);

    // A setup that fails: the flight is handed back, and the goal's page shows why, with the end of the log.
    const broken = fixtureRepo("broken-setup", {
      "package.json": JSON.stringify({ name: "broken-setup", private: true, scripts: { test: "node --test" } }),
      ".quorum/setup": 'echo "resolving dependencies, attempt $(date +%s%N)"\necho "npm error 404 Not Found - GET https://registry.npmjs.org/no-such-package" >&2\nexit 1\n',
    });
    await page.goto(`${server.baseURL}/board`);
    await page.getByRole("button", { name: "New flight" }).click();
    await dialog.getByLabel("Repository folder").fill(broken);
    await dialog.getByLabel("Goal").fill("Anything at all.");
    await expect(dialog.getByLabel("Setup command")).toHaveValue("sh .quorum/setup");
    await dialog.getByRole("button", { name: "Start flight" }).click();
    await expect(dialog).toBeHidden();
    await page.keyboard.press("Escape");
    const failed = page.getByTestId("flight").first();
    await expect(failed).toHaveAttribute("data-status", "red", { timeout: 60_000 });
    await expect(failed.getByTestId("flight-setup")).toContainText("setup failed: `sh .quorum/setup` exited with code 1");
    await snap(page, "setup-failed-board-1440");
    await failed.click();
    await expect(page.getByTestId("setup-state")).toContainText("Failed: `sh .quorum/setup` exited with code 1.");
    await expect(page.getByTestId("setup-log")).toContainText("npm error 404 Not Found");
    await snap(page, "setup-failed-goal-1440");
    await page.setViewportSize(PHONE);
    await fitsTheWidth(page);
    await snap(page, "setup-failed-goal-390");

    // "Waiting for you" says it was the setup, not the model; its Retry runs the setup again, live on the page.
    await page.setViewportSize(DESKTOP);
    const firstLog = (await page.getByTestId("setup-log").textContent()) ?? "";
    await page.getByTestId("waiting-for-you").click();
    const back = page.getByTestId("waiting-item").filter({ hasText: "The flight's setup failed: `sh .quorum/setup` exited with code 1" });
    await expect(back).toBeVisible();
    await expect(back).not.toContainText("stand-in");
    await back.getByRole("button", { name: "Retry" }).click();
    await expect(page.getByText(/runs again on the model/)).toBeVisible();
    await expect(page.getByTestId("setup-log")).not.toHaveText(firstLog, { timeout: 60_000 });
    await expect(page.getByTestId("setup-log")).toContainText("resolving dependencies, attempt");
    await expect(page.getByTestId("setup-state")).toContainText("Failed: `sh .quorum/setup` exited with code 1.");
  });
});

// The MAST monitor as a user meets it: a Quorum whose team thinks through the stand-in model server flies a
// fixture repository of two failing tests, where one coder fixes its test and the other changes nothing, and
// the reviewer accepts that one on a red test run. The monitor finds it as the flight flies: the flight's card and the task's card say FM-3.2 in
// red, "waiting for you" lists it and opens it in the goal's Diagnosis panel, whose evidence links to the
// journal's rows. A run's timeline has its own Diagnosis view.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { withTeamHub } from "./team-hub";
import { acceptingReviewer, idleCoder, twoFailuresRepo } from "../test/fixtures/repos";
import { expect, test } from "./fixtures";
import { quorumCli } from "./server";

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

async function fitsTheWidth(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
}

/** axe on what the page shows now, light and dark: the serious and critical violations. */
async function axeViolations(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
    for (const v of result.violations)
      if (v.impact === "serious" || v.impact === "critical") found.push(`${scheme}: ${v.id} × ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
  }
  await page.emulateMedia({ colorScheme: "light" });
  return found;
}

test("a failure past a gate shows on the flight's card and the task's, waits for its human, and opens in the goal's Diagnosis panel", async ({ page, snap }) => {
  test.setTimeout(360_000);
  const fixture = twoFailuresRepo();
  const coder = [fixture.coder[0], idleCoder("clamp keep", "Looked at clamp: nothing to change there.")];
  await withTeamHub(page, { orchestrator: fixture.orchestrator, coder, reviewer: acceptingReviewer }, async (server) => {
    // The CLI takes the flight once the team's worker has started and checked its model.
    for (let tries = 0; ; tries++) {
      const started = await quorumCli(server.env, ["flight", "start", "--repo", fixture.repo, "--goal", fixture.goal, "--test", "node --test"]).catch((error: Error) => error);
      if (!(started instanceof Error)) break;
      if (!/no team worker/.test(started.message) || tries > 60) throw started;
      await page.waitForTimeout(1_000);
    }
    await page.goto(`${server.baseURL}/board`);

    // As the flight flies, the monitor finds each ACCEPT that rests on a red test run: on the flight's card, live.
    const flight = page.getByTestId("flight").first();
    const alert = flight.getByTestId("flight-alert");
    await expect(alert).toContainText("FM-3.2 No or incomplete verification", { timeout: 240_000 });
    await expect(alert).toContainText(/reviewer accepted #\d+ from coder(-2)? with a test run that exited 1 behind it/);
    await expect(page.getByTestId("task-card").filter({ hasText: "Make clamp keep numbers in range" }).getByTestId("card-finding")).toContainText("FM-3.2");
    await snap(page, "diagnosis-board-1440");
    expect(await axeViolations(page)).toEqual([]);

    // What waits for the human lists it; it opens the finding in the goal's Diagnosis panel.
    await page.getByTestId("waiting-for-you").click();
    const item = page
      .getByTestId("waiting-item")
      .filter({ hasText: /FM-3\.2\s*on flight \d+/ })
      .first();
    await expect(item.locator("abbr")).toHaveAttribute("title", "No or incomplete verification");
    await expect(item).toBeVisible();
    await item.click();
    await expect(page).toHaveURL(/\/board\/\d+#finding-FM-3-2-\d+$/);
    const panel = page.getByTestId("diagnosis");
    const finding = panel.getByTestId("finding").filter({ hasText: "FM-3.2" }).first();
    await expect(finding).toHaveAttribute("data-severity", "high");
    await expect(finding).toContainText("3 · Task verification and termination");
    await expect(finding).toBeFocused();
    await expect(panel.getByTestId("diagnosis-summary")).toContainText(/\d+ findings? in the \d+ events of flight \d+, \d+ of them high \(past a gate\)/);
    await fitsTheWidth(page);
    await snap(page, "diagnosis-panel-1440");
    await page.setViewportSize(PHONE);
    await fitsTheWidth(page);
    await snap(page, "diagnosis-panel-390");
    await page.setViewportSize(DESKTOP);
    expect(await axeViolations(page)).toEqual([]);

    // Its evidence is the journal's rows.
    const evidence = finding.getByRole("link", { name: /journal event \d+/ }).first();
    const id = (await evidence.getAttribute("aria-label"))!.replace("journal event ", "");
    await evidence.click();
    await expect(page).toHaveURL(new RegExp(`/journal\\?at=${id}$`));

    // The human answers a finding from the desk, with a note: it leaves what waits for them.
    await page.getByTestId("waiting-for-you").click();
    const inbox = page.getByTestId("waiting-inbox");
    // The monitor may raise another finding meanwhile, so follow this one by its key, not by a count.
    const key = await inbox
      .locator('li:has([data-kind="finding"])')
      .filter({ hasText: /FM-3\.2\s*on flight \d+/ })
      .first()
      .getAttribute("data-key");
    expect(key).toMatch(/^finding:/);
    const first = inbox.locator(`li[data-key="${key}"]`);
    await first.getByRole("button", { name: "Acknowledge" }).click();
    await first.getByPlaceholder("Note (optional)").fill("the other task's test was still red");
    await snap(page, "diagnosis-answer-1440");
    await first.getByRole("button", { name: "Save acknowledgement" }).click();
    await expect(first).toHaveCount(0);
  });
});

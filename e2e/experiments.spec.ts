// The Lab's Experiments page, reached from Settings (not the rail): a table `quorum experiment` saved on this hub
// appears with when it ran, its parameters and the command that runs it again; the experiments not run yet say
// how to run them. Photographed at both sizes.
import { seriousViolations } from "./axe";
import { expect, test } from "./fixtures";

test("an experiment run from the command line shows on the Lab's Experiments page, under Settings, with the command that reproduces it", async ({ page, signIn, cli }) => {
  test.setTimeout(120_000);
  await signIn(page);
  const printed = await cli(["experiment", "reflection", "--tasks", "2000", "--seed", "3"]);
  expect(printed).toContain("| break-even defect rate p* | u_r / (f·u_v) | 3/16 (0.1875) |");

  const rail = page.getByRole("navigation", { name: "Pages" });
  await expect(rail.getByRole("link", { name: "Settings" })).toBeVisible();
  await expect(rail.getByRole("link", { name: /Experiments/ })).toHaveCount(0);
  await rail.getByRole("link", { name: "Settings" }).click();
  await page.getByRole("region", { name: "Lab" }).getByRole("link", { name: "Experiments", exact: true }).click();
  await expect(page).toHaveURL(/\/experiments$/);
  await expect(page).toHaveTitle("Experiments · Lab · Quorum");
  // Settings stays marked as where you are.
  await expect(rail.getByRole("link", { name: "Settings" })).toHaveAttribute("aria-current", "page");
  const reflection = page.getByRole("region", { name: "reflection" });
  const result = reflection.getByTestId("experiment");
  await expect(result).toHaveAttribute("data-experiment", "reflection");
  await expect(result.getByRole("heading", { name: /^Reflection: what a self-critique/ })).toBeVisible();
  await expect(result).toContainText(/Ran (just now|\d+ min ago)/);
  await expect(result.getByTestId("experiment-parameter")).toContainText(["tasks 2000", "seed 3", "uv 200", "w 150", "ur 30", "p 0.4", "f 0.8"]);
  await expect(result.getByTestId("experiment-command")).toHaveText("npm run quorum -- experiment reflection --tasks 2000 --seed 3 --uv 200 --w 150 --ur 30 --p 0.4 --f 0.8");
  const table = result.getByTestId("experiment-table");
  await expect(table.getByRole("columnheader")).toHaveText(["quantity", "formula", "exact", "simulated (2,000 tasks, seed 3)", "within 4 standard errors"]);
  await expect(table.getByRole("row", { name: /break-even defect rate/ })).toContainText("3/16 (0.1875)");
  await result.getByText("How to read this table").click();
  await expect(result).toContainText("The cost reflection does not avoid is the rework w");
  // The experiments not run yet say how to run them.
  await expect(page.getByRole("region", { name: "bakeoff" })).toContainText("not run yet");
  await expect(page.getByRole("region", { name: "bakeoff" }).getByTestId("experiment-command")).toHaveText(
    "npm run quorum -- experiment bakeoff [--tasks N] [--seed S] [--workers W]",
  );
  expect(await seriousViolations(page, "/experiments")).toEqual([]);

  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ]) {
    await page.setViewportSize({ width, height });
    // A phone reads the table as stacked rows: nothing scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: `test-results/screens/experiments-${width}x${height}.png`, fullPage: true });
  }
});

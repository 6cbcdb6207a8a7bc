// Fork replay in the run's replay view: a human steps to a turn of the demo coder's run, forks from there with
// the recorded answers edited (a different fix), and reads both journals side by side, the first divergence
// marked; the run's own journal is the same afterwards.
import { seriousViolations } from "./axe";
import { expect, test } from "./fixtures";

test("a human forks a finished run from a turn with an edited script and sees where the journals part", async ({ page, signIn }) => {
  test.setTimeout(180_000);
  await signIn(page);
  // A finished run of the demo team's coder (the first flight flies when someone signs in).
  let runId: string | undefined;
  await expect
    .poll(
      async () => {
        const runs = await (await page.request.get("/api/bill/runs?limit=200")).json();
        runId = runs.items.find((r: { agentName: string; status: string; taskId: string | null }) => /^coder(-\d+)?$/.test(r.agentName) && r.status === "done" && r.taskId)?.runId;
        return runId;
      },
      { timeout: 120_000 },
    )
    .toBeTruthy();
  const before = await (await page.request.get(`/api/journal/export?run=${runId}`)).text();

  await page.goto(`/journal?run=${runId}&view=replay`);
  await expect(page.getByTestId("replay-step")).toHaveText(/^Turn 1 of \d+$/);
  await page.getByRole("button", { name: "Next →" }).click();
  await expect(page.getByTestId("replay-step")).toHaveText(/^Turn 2 of \d+$/);
  await page.getByTestId("fork-from-here").click();
  const panel = page.getByTestId("fork-panel");
  await expect(panel.getByRole("heading", { name: "Fork from turn 2" })).toBeVisible();
  // The script starts as what the recorded model said from turn 2: its fix. Make it a different one.
  const script = panel.getByTestId("fork-script");
  const recorded = await script.inputValue();
  expect(recorded).toContain("return [];");
  await script.fill(recorded.replace("return [];", "return null;"));
  await panel.getByRole("button", { name: "Fork", exact: true }).click();

  await expect(panel.getByTestId("fork-progress")).toContainText("re-living", { timeout: 30_000 });
  const result = panel.getByTestId("fork-result");
  await expect(result).toBeVisible({ timeout: 90_000 });
  await expect(panel.getByTestId("fork-progress")).toContainText("run_tests → exit code 1");
  await expect(result.getByTestId("fork-divergence")).toHaveAttribute("data-diverged", "true");
  await expect(result.getByTestId("fork-divergence")).toContainText("return null");
  const first = result.locator('[data-testid="fork-row"][data-first]');
  await expect(first).toHaveCount(1);
  await expect(first).toContainText("ModelResponded");
  // The recorded fix passed its tests; the fork's did not.
  await expect(result.locator('[data-testid="fork-row"][data-differs="true"]').filter({ hasText: "exit code 0 (passed)" })).toContainText("exit code 1");
  await expect(result.getByTestId("fork-fork-result")).toContainText("done");
  expect(await seriousViolations(page, "the fork's result")).toEqual([]);

  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ]) {
    await page.setViewportSize({ width, height });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await result.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screens/fork-${width}x${height}.png` });
  }
  // The run's journal is what it was, to the byte.
  expect(await (await page.request.get(`/api/journal/export?run=${runId}`)).text()).toBe(before);
});

// Outside agents on the Bill: an agent reports what its model calls spent (POST /api/usage, as its Stop hook or
// report_usage does), and the Bill a human is watching shows it on the agent's line and the model's, marked
// self-reported, without a reload — at a desk's width and a phone's.
import { expect, test, uniqueName } from "./fixtures";

test("a self-reported call joins the Bill live, marked as such", async ({ page, signIn, registerAgent, asAgent, snap }, testInfo) => {
  await signIn(page);
  await page.getByRole("link", { name: "Bill", exact: true }).click();
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "live");
  await expect(page.getByTestId("bill-total")).toBeVisible();
  await page.evaluate(() => ((window as unknown as { __stayed: boolean }).__stayed = true));

  const claude = await registerAgent(uniqueName("claude-code"), "outside");
  const model = `claude-e2e-${Date.now().toString(36)}`;
  for (const call of [
    { model, inputTokens: 24_000, outputTokens: 1_200, cachedTokens: 20_000 },
    { model, inputTokens: 26_500, outputTokens: 900, cachedTokens: 24_000 },
  ])
    expect((await asAgent(claude).post("/api/usage", call)).status).toBe(201);

  const row = page.locator(`[data-testid="bill-agent-row"][data-agent="${claude.name}"]`);
  await expect(row).toBeVisible();
  await expect(row.getByTestId("agent-tokens")).toHaveAttribute("data-tokens", "52600");
  const mark = row.getByTestId("self-reported");
  await expect(mark).toHaveText("self-reported");
  await expect(mark).toHaveAttribute("title", /53k tokens in 2 calls reported by the agent itself/);
  await expect(page.getByTestId("bill-models").getByRole("row").filter({ hasText: model }).getByTestId("self-reported")).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __stayed?: boolean }).__stayed)).toBe(true);

  await snap(page, "bill-self-reported");
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ]) {
    await page.setViewportSize({ width, height });
    await row.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`bill-self-reported-${width}x${height}.png`), fullPage: true });
    await row.screenshot({ path: testInfo.outputPath(`bill-self-reported-row-${width}x${height}.png`) });
    // Nothing scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  }
});

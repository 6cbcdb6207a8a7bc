// The Bill, the Journal explorer and the Agents page as a human sees them, against a real server whose
// built-in team flies scripted flights: the bill changes live while agents spend, without a reload.
import { expect, test } from "./fixtures";

const tokensOf = async (locator: import("@playwright/test").Locator) => Number(await locator.getAttribute("data-tokens"));

test("the bill changes live while a scripted flight spends tokens", async ({ page, signIn, cli, snap }) => {
  test.setTimeout(180_000);
  await signIn(page);
  await page.getByRole("link", { name: "Bill", exact: true }).click();
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "live");
  const total = page.getByTestId("total-tokens");
  await expect(total).toBeVisible();
  await expect(page.locator('[data-testid="bill-agent-row"][data-agent="coder"]')).toBeVisible();
  const before = await tokensOf(total);
  // A marker that a reload would wipe: the numbers must move without one.
  await page.evaluate(() => ((window as unknown as { __stayed: boolean }).__stayed = true));

  const launched = await cli(["demo"]);
  expect(launched).toMatch(/goal task #\d+/);
  await expect.poll(() => tokensOf(total), { timeout: 90_000 }).toBeGreaterThan(before);
  // The team has two coders; whichever claimed the demo's one task spends.
  const coders = page.locator('[data-testid="bill-agent-row"][data-agent^="coder"]').getByTestId("agent-tokens");
  const codersSpent = async () => (await Promise.all((await coders.all()).map(tokensOf))).reduce((n, t) => n + t, 0);
  await expect.poll(codersSpent, { timeout: 90_000 }).toBeGreaterThan(0);
  // The top strip's spend today moves with it: the scripted team called no model, so its tokens show as simulated.
  await expect.poll(async () => Number(await page.getByTestId("team-spend").getAttribute("data-simulated")), { timeout: 30_000 }).toBeGreaterThan(0);
  expect(await page.evaluate(() => (window as unknown as { __stayed?: boolean }).__stayed)).toBe(true);

  // The flight finishes (the tester's run is the last to spend): the bill equals the sum of the runs listed.
  await expect(page.getByTestId("spend-chart").locator("path[data-agent]").first()).toBeVisible();
  await expect(page.getByTestId("budget-bar").first()).toBeVisible();
  await expect(page.getByTestId("run-row").first()).toBeVisible();
  // Each run reads as its agent, its task and when it started; its id is only in the link's tooltip.
  const coderRun = page
    .getByTestId("run-name")
    .filter({ hasText: /^coder(-\d+)? on #\d+ \S/ })
    .first();
  await expect(coderRun).toBeVisible();
  await expect(coderRun).toHaveAttribute("title", /^Run run_[0-9a-f]{16}: open its timeline$/);
  await expect(page.getByTestId("run-row").first()).toContainText(/started (just now|\d+ min ago)/);
  await expect(page.getByTestId("runs-table")).not.toContainText(/run_[0-9a-f]{16}/);
  const api = await page.request.get("/api/bill");
  const bill = await api.json();
  expect(bill.total.tokens).toBe(bill.agents.reduce((n: number, a: { tokens: number }) => n + a.tokens, 0));
  for (const budget of bill.budgets) expect(budget.left).toBe(budget.allowance - budget.spent);
  // Cached tokens have their own column, per agent and in total, as the bill counts them.
  await expect(page.getByRole("columnheader", { name: "Cached", exact: true }).first()).toBeVisible();
  await expect.poll(async () => tokensOf(page.getByTestId("total-cached")), { timeout: 30_000 }).toBe((await (await page.request.get("/api/bill")).json()).total.cachedTokens);
  await snap(page, "bill");
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ]) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `test-results/bill-${width}x${height}.png`, fullPage: true });
  }
});

test("the journal explorer searches, opens a run's timeline, replays it identically and diagnoses it", async ({ page, signIn, snap }) => {
  test.setTimeout(120_000);
  await signIn(page);
  // A finished run of the demo team: the coder's, with its task.
  const runs = await (await page.request.get("/api/bill/runs?limit=200")).json();
  const run = runs.items.find((r: { agentName: string; status: string; taskId: string | null }) => /^coder(-\d+)?$/.test(r.agentName) && r.status === "done" && r.taskId);
  expect(run, "a finished coder run (the first flight)").toBeTruthy();

  await page.getByRole("link", { name: "Journal", exact: true }).click();
  await expect(page.getByTestId("journal-row").first()).toBeVisible();
  await page.getByTestId("journal-search").fill("parse");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/q=parse/);
  await expect(page.getByTestId("journal-row").first()).toBeVisible();
  await snap(page, "journal-search");

  await page.goto(`/journal?run=${run.runId}&view=timeline`);
  const timeline = page.getByTestId("timeline");
  await expect(timeline.getByTestId("timeline-turn").first()).toBeVisible();
  await expect(timeline.getByTestId("run-result")).toContainText("done");
  await expect(timeline).toContainText("edit_file");
  await snap(page, "journal-timeline");

  await page.getByRole("tab", { name: /Replay/ }).click();
  await expect(page.getByTestId("replay-verdict").locator("[data-identical]")).toHaveAttribute("data-identical", "true", { timeout: 30_000 });
  await expect(page.getByTestId("replay-step")).toHaveText(/^Turn 1 of \d+$/);
  await page.getByRole("button", { name: "Next →" }).click();
  await expect(page.getByTestId("replay-step")).toHaveText(/^Turn 2 of \d+$/);
  await snap(page, "journal-replay");

  await page.getByRole("tab", { name: /Diagnosis/ }).click();
  await expect(page.getByTestId("diagnosis")).toContainText(/Clean|finding/);

  await page.getByRole("tab", { name: /Timeline/ }).click();
  await page.getByRole("button", { name: "its task's thread" }).click();
  await expect(page.getByTestId("thread-entry").first()).toBeVisible();
  await snap(page, "journal-thread");
  await page.getByRole("tab", { name: /Audit/ }).click();
  await expect(page.getByTestId("audit")).toContainText("ACCEPT");

  const exported = await page.request.get(`/api/journal/export?run=${run.runId}`);
  expect(exported.headers()["content-type"]).toContain("application/x-ndjson");
  const lines = (await exported.text())
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(lines[0]).toMatchObject({ kind: "RunStarted", runId: run.runId });
  expect(lines.at(-1)).toMatchObject({ kind: "AgentFinished" });
});

test("the agents page lists the team with spend and budgets and opens an agent's runs and principles", async ({ page, signIn, snap }) => {
  await signIn(page);
  await page.getByRole("link", { name: "Agents", exact: true }).click();
  // A team coder that has run (of two, whichever took the demo's task), by name: other specs register agents whose role is coder too.
  const runs = await (await page.request.get("/api/bill/runs?limit=200")).json();
  const worked: string = runs.items.find((r: { agentName: string }) => /^coder(-\d+)?$/.test(r.agentName)).agentName;
  const row = page.locator(`[data-testid="roster-row"][data-agent="${worked}"]`);
  await expect(row).toBeVisible();
  await expect(row.getByTestId("budget-bar")).toBeVisible();
  // Each team member's model, as its worker announced it: the e2e team runs scripted.
  await expect(row.getByTestId("member-model")).toHaveText("scripted");
  await expect(page.getByRole("heading", { name: "Principles" })).toBeVisible();
  await snap(page, "agents");
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ]) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `test-results/agents-${width}x${height}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
  await row.getByRole("link").first().click();
  await expect(page.getByRole("heading", { name: worked, exact: true })).toBeVisible();
  await expect(page.getByTestId("run-row").first()).toBeVisible();
  await expect(page.getByText("Principles in its context")).toBeVisible();
  // A human tops up the coder's budget in place; the bar shows the new allowance once the change commits.
  const budget = page.getByTestId("budget").first();
  await budget.getByRole("button", { name: "Change allowance" }).click();
  await budget.getByLabel("Tokens").fill("250000");
  await budget.getByRole("button", { name: "Save" }).click();
  await expect(budget.getByTestId("budget-bar")).toContainText("of 250k");
  await expect(budget.getByRole("button", { name: "Change allowance" })).toBeVisible();
  await snap(page, "agent");
});

// The Bill per flight and per task as a human sees it: the demo flight's plan shares its allowance out to its
// task, the tables show it live, and a top-up (from the page, or from elsewhere) raises the allowance without a reload.
import { formatTokens } from "../components/bill/format";
import { expect, test, type ResponseBody } from "./fixtures";

test("the Bill shows each flight's and task's budget live, and a top-up raises the allowance", async ({ page, signIn, cli, snap }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await page.getByRole("link", { name: "Bill", exact: true }).click();
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "live");
  // A marker that a reload would wipe: the tables must move without one.
  await page.evaluate(() => ((window as unknown as { __stayed: boolean }).__stayed = true));

  const launched = await cli(["demo"]);
  const goalNumber = Number(/goal task #(\d+)/.exec(launched)?.[1]);
  expect(goalNumber, launched).toBeGreaterThan(0);

  // The plan arrives live: the flight's row, and its task's share in the per-task table.
  const flightOf = async (): Promise<ResponseBody> => (await (await page.request.get("/api/flights")).json()).items.find((f: ResponseBody) => f.goalTask.number === goalNumber);
  await expect.poll(async () => (await flightOf())?.tasks[0]?.budget?.allowance ?? 0, { timeout: 90_000 }).toBeGreaterThan(0);
  const flight = await flightOf();
  const task = flight.tasks[0];
  const flightRow = page.getByTestId("bill-flights-row").filter({ hasText: `Flight ${flight.number}` });
  const taskRow = page.getByTestId("bill-flight-tasks-row").filter({ hasText: `#${task.number}` });
  await expect(flightRow.locator('td[data-label="Allowance"]')).toHaveText(formatTokens(flight.budget.allowance));
  await expect(taskRow.locator('td[data-label="Allowance"]')).toHaveText(formatTokens(task.budget.allowance));
  await expect(taskRow.getByTestId("budget-state")).toBeVisible();
  // The task's share is the flight's allowance less what planning spent and the reserve.
  expect(task.budget.allowance).toBeLessThan(flight.budget.allowance);
  expect(flight.budget.promised).toBe(task.budget.allowance);

  // A top-up from the page: the task's allowance rises by what the human added.
  await taskRow.getByRole("button", { name: `Top up task #${task.number}` }).click();
  const form = taskRow.getByRole("form", { name: `Top up task #${task.number}` });
  await form.getByLabel("Add tokens").fill("20000");
  await form.getByRole("button", { name: "Add" }).click();
  await expect(taskRow.locator('td[data-label="Allowance"]')).toHaveText(formatTokens(task.budget.allowance + 20_000));
  // More than the flight has left to give is refused, in words, and changes nothing.
  const left = flight.budget.allowance - task.budget.allowance - 20_000;
  await taskRow.getByRole("button", { name: `Top up task #${task.number}` }).click();
  await form.getByLabel("Add tokens").fill(String(left + 1_000));
  await form.getByRole("button", { name: "Add" }).click();
  await expect(form.getByRole("alert")).toHaveText(
    `flight ${flight.number} has ${formatTokens(left)} tokens left to give: add at most that, or top up flight ${flight.number} first.`,
  );
  await form.getByRole("button", { name: "Cancel" }).click();
  await snap(page, "bill-flights-1440");

  // A top-up made elsewhere (the API) reaches the page through the event stream.
  const raised = flight.budget.allowance + 100_000;
  const reply = await page.request.post(`/api/budgets/${flight.budget.id}/allowance`, { data: { allowance: raised } });
  expect(reply.status()).toBe(200);
  await expect(flightRow.locator('td[data-label="Allowance"]')).toHaveText(formatTokens(raised));
  expect(await page.evaluate(() => (window as unknown as { __stayed?: boolean }).__stayed)).toBe(true);

  // On a phone the tables stack: nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(taskRow.locator('td[data-label="Allowance"]')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await snap(page, "bill-flights-390");
  // The page scrolls inside its frame, so a full-page shot stops at the fold: this one shows the task table itself.
  await taskRow.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("bill-flights-390-tasks.png") });

  // The task's page shows its share with a Top up too.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/board/${task.number}`);
  const budget = page.getByTestId("task-budget");
  await expect(budget).toContainText(`Its share of flight ${flight.number}'s allowance`);
  await expect(budget.getByRole("button", { name: `Top up task #${task.number}` })).toBeVisible();
  await snap(page, "task-budget-1440");
});

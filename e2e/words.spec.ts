// Words for people: the journal's rows are sentences that name people, tasks and rooms (ids only in the
// expanded JSON), grouped under day headers, filtered by a searchable multi-select of kinds.
import { expect, test, uniqueName } from "./fixtures";

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

test("journal rows speak in names, under day headers, hide the plumbing until asked, and the kind filter picks several kinds in words", async ({
  page,
  signIn,
  registerAgent,
  asAgent,
  snap,
}) => {
  const human = await signIn(page, uniqueName("reader"));
  const coder = await registerAgent(uniqueName("coder"), "coder");
  const title = `Words ${uniqueName("t")}`;
  const task = await (await page.request.post("/api/tasks", { data: { title, acceptanceCriteria: "it reads" } })).json();
  const claimed = await asAgent(coder).post(`/api/tasks/${task.id}/claim`);
  expect(claimed.status).toBe(200);

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/journal");
  await expect(page.getByTestId("journal-day").first()).toBeVisible();
  await snap(page, "journal-first-screen-1440");
  const lines = page.getByTestId("journal-line");
  await expect(lines.filter({ hasText: `${human} filed #${task.number} ${title} (approver ${human})` })).toHaveCount(1);
  await expect(lines.filter({ hasText: `${coder.name} claimed #${task.number}` })).toHaveCount(1);
  const texts = await lines.allTextContents();
  expect(texts.filter((t) => UUID.test(t))).toEqual([]);

  // Ids are in the expanded JSON only.
  const row = page.getByTestId("journal-row").filter({ hasText: `claimed #${task.number}` });
  await row.getByRole("button", { name: /show its JSON/ }).click();
  await expect(row.locator("pre")).toContainText(task.id);

  // The journal opens on what people and agents did: the plumbing (a lease renewed, deliveries, model calls…)
  // waits behind a toggle.
  expect((await asAgent(coder).post(`/api/tasks/${task.id}/heartbeat`, { fence: claimed.body.fence })).status).toBe(200);
  await page.goto(`/journal?task=${task.id}`);
  const renewed = page.locator('[data-testid="journal-row"][data-kind="LeaseRenewed"]');
  await expect(page.locator('[data-testid="journal-row"][data-kind="TaskClaimed"]')).toBeVisible();
  await expect(renewed).toHaveCount(0);
  await page.getByTestId("system-toggle").check();
  await expect(page).toHaveURL(/system=1/);
  await expect(renewed).toHaveCount(1);
  await page.getByTestId("system-toggle").uncheck();
  await expect(renewed).toHaveCount(0);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/journal");
  await expect(page.getByTestId("journal-day").first()).toBeVisible();
  await snap(page, "journal-first-screen-390");
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/journal");

  // Two kinds at once, found by typing, in the rows' words.
  await page.getByTestId("kind-picker").click();
  await page.getByLabel("Find a kind").fill("task c");
  const choices = page.getByRole("group", { name: "Kinds to show" });
  await expect(choices.getByRole("checkbox")).toHaveCount(3); // task created, task claimed, task cancelled
  await choices.getByRole("checkbox", { name: "task created" }).check();
  await choices.getByRole("checkbox", { name: "task claimed" }).check();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("kind-picker")).toContainText("2 kinds");
  await expect(page).toHaveURL(/kind=TaskCreated%2CTaskClaimed|kind=TaskCreated,TaskClaimed/);
  await expect(page.getByTestId("journal-row").first()).toBeVisible();
  const kinds = await page.getByTestId("journal-row").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-kind")));
  expect(new Set(kinds)).toEqual(new Set(["TaskCreated", "TaskClaimed"]));
});

test("an agent's page shows — for its cost while nothing it spent has a price, as the Bill does", async ({ page, signIn, registerAgent }) => {
  await signIn(page);
  const agent = await registerAgent(uniqueName("idle"), "coder");
  await page.goto(`/agents/${agent.id}`);
  const cost = page.locator("dt", { hasText: /^Cost$/ }).locator("xpath=following-sibling::dd");
  await expect(cost).toHaveText("—");
  await expect(page.getByText("$0.00")).toHaveCount(0);
});

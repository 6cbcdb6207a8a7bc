// A human fixes a ready task from its drawer: the new words show on the card and in the drawer, live, and
// the journal says what changed; once an agent claims it, Edit is gone.
import { expect, test, uniqueName } from "./fixtures";

test("a human edits a ready task's title and criteria in the drawer, and cannot once it is claimed", async ({ page, signIn, registerAgent, asAgent, snap }) => {
  await signIn(page);
  const marker = uniqueName("edit");
  const created = await page.request.post("/api/tasks", { data: { title: `Fix teh parser ${marker}` } });
  expect(created.status()).toBe(201);
  const task = await created.json();

  await page.goto(`/board?task=${task.id}`);
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "live");
  const drawer = page.getByTestId("task-drawer");
  await drawer.getByRole("button", { name: "Edit" }).click();
  const dialog = page.getByRole("dialog", { name: `Edit #${task.number}` });
  await dialog.getByLabel("Title").fill(`Fix the parser ${marker}`);
  await dialog.getByLabel("Acceptance criteria").fill("parse('') returns []");
  await snap(page, "edit-task");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
  await expect(drawer).toContainText(`Fix the parser ${marker}`);
  await expect(drawer).toContainText("parse('') returns []");
  await expect(page.getByTestId("task-card").filter({ hasText: `Fix the parser ${marker}` })).toBeVisible();

  // An agent claims it (the criteria made that possible): the drawer no longer offers Edit.
  const coder = await registerAgent(uniqueName("coder"), "coder");
  expect((await asAgent(coder).post(`/api/tasks/${task.id}/claim`)).status).toBe(200);
  await expect(drawer.getByRole("button", { name: "Edit" })).toHaveCount(0);
  const late = await page.request.patch(`/api/tasks/${task.id}`, { data: { title: "too late" } });
  expect(late.status()).toBe(409);
});

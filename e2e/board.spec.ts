// The Board as a human uses it: create a task, watch an agent claim and submit it, review it, cancel another with an ADR.
import { expect, test, uniqueName } from "./fixtures";

test("a task goes from a human's dialog through an agent's work and review to done, live", async ({ page, signIn, registerAgent, asAgent, snap }) => {
  await signIn(page);
  const agent = await registerAgent(uniqueName("coder"), "coder");
  const api = asAgent(agent);
  await page.goto("/board");
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "live");

  // `c` opens the create dialog; it refuses an empty title before asking the server.
  const title = `Parse empty input ${uniqueName("t")}`;
  await page.keyboard.press("c");
  const create = page.getByRole("dialog", { name: "New task" });
  await create.getByRole("button", { name: "Create task" }).click();
  await expect(create.getByText("A task needs a title.")).toBeVisible();
  // The dialog says who will work the task: outside agents; the built-in team takes flights.
  await expect(create.getByTestId("who-picks-up")).toContainText("outside agent");
  await expect(create.getByTestId("who-picks-up")).toContainText("New flight");
  await create.getByLabel("Title").fill(title);
  await create.getByLabel("Acceptance criteria").fill("parse('') returns [] and the suite passes");
  await create.getByRole("button", { name: "Create task" }).click();
  await expect(create).toBeHidden();

  const card = page.getByTestId("task-card").filter({ hasText: title });
  await expect(page.getByTestId("column-ready").getByTestId("task-card").filter({ hasText: title })).toBeVisible();
  const id = (await card.getAttribute("data-task-id"))!;
  await expect(page.getByTestId("task-drawer")).toContainText("parse('') returns [] and the suite passes");

  // The agent claims it over HTTP; the card moves by itself, with its owner and lease (the fence is in the drawer's details).
  const claimed = await api.post(`/api/tasks/${id}/claim`);
  expect(claimed.status).toBe(200);
  const working = page.getByTestId("column-in_progress").getByTestId("task-card").filter({ hasText: title });
  await expect(working).toContainText(agent.name);
  await expect(page.getByTestId("task-details")).toContainText("(fencing token 1)");
  await expect(working.getByTestId("lease")).toContainText(/2\d:\d\d left/);

  expect((await api.post(`/api/tasks/${id}/output`, { fence: 1, items: [{ file: "parse.ts" }, "ran the suite"] })).status).toBe(200);
  await expect(page.getByTestId("task-details")).toContainText("2 items");
  const stale = await api.post(`/api/tasks/${id}/heartbeat`, { fence: 0 });
  expect(stale.body.error).toBe("stale_fence");
  expect((await api.post(`/api/tasks/${id}/submit`, { fence: 1, summary: "parse('') returns []", evidence: "✓ 13 passed, 0 failed" })).status).toBe(200);
  const inReview = page.getByTestId("column-review").getByTestId("task-card").filter({ hasText: title });
  await expect(inReview).toBeVisible();

  // The human is the approver: the drawer shows the evidence and offers Review.
  await inReview.click();
  const drawer = page.getByTestId("task-drawer");
  await expect(drawer.getByTestId("evidence")).toContainText("✓ 13 passed, 0 failed");
  await drawer.getByRole("button", { name: "Review" }).click();
  const review = page.getByRole("dialog", { name: /Review #/ });
  await review.getByLabel(/Request changes/).check();
  await review.getByRole("button", { name: "Request changes" }).click();
  await expect(review.getByText(/Say what has to change/)).toBeVisible();
  await review.getByLabel(/Approve/).check();
  await review.getByRole("button", { name: "Approve" }).click();
  await expect(review).toBeHidden();

  await expect(page.getByTestId("column-done").getByTestId("task-card").filter({ hasText: title })).toBeVisible();
  await expect(drawer.getByTestId("reviews")).toContainText("Approved");
  await snap(page, "board-done");

  // Reopening needs evidence the approver has not seen: the server's refusal shows in the dialog.
  await drawer.getByRole("button", { name: "Reopen with evidence" }).click();
  const reopen = page.getByRole("dialog", { name: /Reopen #/ });
  await reopen.getByLabel("New evidence").fill("✓ 13 passed, 0 failed");
  await reopen.getByRole("button", { name: "Reopen" }).click();
  await expect(reopen.getByRole("alert")).toContainText("already on record");
  await reopen.getByRole("button", { name: "Close" }).click();
  await expect(page.getByTestId("column-done").getByTestId("task-card").filter({ hasText: title })).toBeVisible();
});

test("a task is cancelled only with an ADR, which the drawer shows; `/` filters the board", async ({ page, signIn, snap }) => {
  await signIn(page);
  const title = `Port the XML parser ${uniqueName("t")}`;
  const created = await page.request.post("/api/tasks", { data: { title, acceptanceCriteria: "XML parses" } });
  expect(created.status()).toBe(201);
  await page.goto("/board");
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "live");

  await page.keyboard.press("/");
  await page.keyboard.type(title);
  await expect(page.getByTestId("task-card")).toHaveCount(1);
  await page.getByTestId("task-card").filter({ hasText: title }).click();

  const drawer = page.getByTestId("task-drawer");
  await drawer.getByRole("button", { name: "Cancel with ADR" }).click();
  const dialog = page.getByRole("dialog", { name: /Cancel #\d+ with an ADR/ });
  await dialog.getByRole("button", { name: "Cancel task" }).click();
  await expect(dialog.getByText("Consequences is required.")).toBeVisible();
  await dialog.getByLabel("ADR title").fill("Drop XML support");
  await dialog.getByLabel("Context").fill("No client has sent XML since 2024.");
  await dialog.getByLabel("Decision").fill("Cancel the port; remove the XML endpoint.");
  await dialog.getByLabel("Consequences").fill("XML clients get a 415 with a pointer to JSON.");
  await dialog.getByRole("button", { name: "Cancel task" }).click();
  await expect(dialog).toBeHidden();

  await expect(drawer.getByTestId("adr")).toContainText("Drop XML support");
  await expect(drawer.getByTestId("adr")).toContainText("XML clients get a 415");
  await expect(page.getByTestId("column-ready").getByTestId("task-card").filter({ hasText: title })).toHaveCount(0);
  await page.getByRole("button", { name: /Cancelled/ }).click();
  await expect(page.getByTestId("column-cancelled").getByTestId("task-card").filter({ hasText: title })).toBeVisible();
  await snap(page, "board-cancelled");
});

// The tests' gate as a human reviewer meets it: an agent submits work whose run still fails the task's target
// test and breaks another; the task's Tests section says which, the review dialog says the tests refuse an
// accept, and the human either sends it back in the tests' words or accepts over them, saying why. A human
// corrects the targets while the task is open.
import { expect, test, uniqueName } from "./fixtures";

const run = (passed: string[], failed: string[]) => ({ format: "tap", namesPasses: true, passed, failed, skipped: [], truncated: false });

test("a submission whose target test still fails is refused an accept until the human overrules it, saying why", async ({ page, signIn, registerAgent, asAgent, snap }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  const coder = await registerAgent(uniqueName("coder"), "coder");
  const marker = uniqueName("gate");
  const filed = await page.request.post("/api/tasks", {
    data: { title: `Dash the slugs ${marker}`, acceptanceCriteria: "slug('a b') is 'a-b'", targetTests: ["slug > dashes spaces"] },
  });
  expect(filed.status()).toBe(201);
  const task = await filed.json();
  expect((await asAgent(coder).post(`/api/tasks/${task.id}/claim`)).status).toBe(200);
  const submitted = await asAgent(coder).post(`/api/tasks/${task.id}/submit`, {
    fence: 1,
    summary: "slugs are dashed",
    evidence: "ran the tests",
    tests: run(["slug > lower-cases"], ["slug > dashes spaces", "clamp > low"]),
  });
  expect(submitted.status).toBe(200);

  await page.goto(`/board?task=${task.id}`);
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "live");
  const drawer = page.getByTestId("task-drawer");
  const tests = drawer.getByTestId("task-tests");
  await expect(tests.getByTestId("target-tests")).toHaveText("slug > dashes spaces");
  await expect(tests.getByTestId("tests-still-failing")).toContainText("slug > dashes spaces");
  await expect(tests.getByTestId("tests-broken")).toContainText("clamp > low");
  await expect(tests.getByTestId("tests-refusal")).toHaveText("The tests refuse an accept: target tests still failing: slug > dashes spaces; newly broken: clamp > low.");
  await snap(page, "tests-gate-drawer-1440");

  // The human reviews: the dialog says the tests refuse, and an accept needs a reason to overrule them.
  await drawer.getByRole("button", { name: "Review" }).click();
  const dialog = page.getByRole("dialog", { name: `Review #${task.number}` });
  await expect(dialog).toContainText("The tests refuse an accept: target tests still failing: slug > dashes spaces; newly broken: clamp > low.");
  await dialog.getByLabel("Approve → done").check();
  await dialog.getByRole("button", { name: "Approve over the tests" }).click();
  await expect(dialog).toContainText("Say why you accept although the tests refuse it");
  await dialog.getByLabel("Why accept over the tests (required)").fill("clamp is flaky upstream; the slug fix is what was asked");
  await snap(page, "tests-gate-review-1440");
  await dialog.getByRole("button", { name: "Approve over the tests" }).click();
  await expect(dialog).toBeHidden();
  await expect(drawer.getByTestId("reviews")).toContainText("Approved");

  // The journal keeps what was overruled and why.
  const journal = await page.request.get(`/api/journal?kind=TaskReviewed&task=${task.id}`);
  const rows = (await journal.json()).items as { data: { overruled?: { reason: string; refusal: string } } }[];
  expect(rows.at(-1)?.data.overruled).toEqual({
    refusal: "target tests still failing: slug > dashes spaces; newly broken: clamp > low",
    reason: "clamp is flaky upstream; the slug fix is what was asked",
  });
});

test("a human changes an open task's target tests from its Tests section, and the gate judges by the new ones", async ({ page, signIn, registerAgent, asAgent, snap }) => {
  await signIn(page);
  const coder = await registerAgent(uniqueName("coder"), "coder");
  const filed = await page.request.post("/api/tasks", {
    data: { title: `Clamp low values ${uniqueName("targets")}`, acceptanceCriteria: "clamp(-1) is 0", targetTests: ["clamp low"] },
  });
  const task = await filed.json();
  expect((await asAgent(coder).post(`/api/tasks/${task.id}/claim`)).status).toBe(200);
  await asAgent(coder).post(`/api/tasks/${task.id}/submit`, { fence: 1, summary: "clamped", evidence: "ran them", tests: run(["clamp > low"], []) });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/board/${task.number}`);
  const tests = page.getByTestId("task-tests");
  await expect(tests.getByTestId("tests-unseen")).toContainText("clamp low");
  await tests.getByRole("button", { name: "Change" }).click();
  const dialog = page.getByRole("dialog", { name: `Target tests of #${task.number}` });
  await dialog.getByLabel("One test per line").fill("low");
  await dialog.getByRole("button", { name: "Save targets" }).click();
  await expect(dialog).toBeHidden();
  await expect(tests.getByTestId("tests-fixed")).toContainText("low");
  await expect(tests.getByTestId("tests-refusal")).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
  await snap(page, "tests-gate-task-page-390");
});

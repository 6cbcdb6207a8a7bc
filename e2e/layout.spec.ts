// The board keeps its shape: with a task's drawer open its columns keep their width and scroll; on a phone the
// board opens on the first column with work in it, the top strip fits, and a review's verdict stays in reach.
import { expect, test } from "./fixtures";
import { newHome, startQuorum, stopQuorum } from "./server";

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

test("the board keeps its columns beside the drawer; a phone opens on the busy column, fits the top strip and keeps Review in reach", async ({ page, snap }) => {
  test.setTimeout(120_000);
  const server = await startQuorum(newHome(), undefined, { QUORUM_TEAM: "0", QUORUM_FLIGHT: "off" });
  try {
    await page.setViewportSize(DESKTOP);
    await page.goto(server.signInUrl);
    await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "live");
    const post = async (path: string, data: unknown, key?: string) => {
      const response = await page.request.post(`${server.baseURL}${path}`, { data, headers: key ? { authorization: `Bearer ${key}` } : {} });
      expect(response.ok(), `${path}: ${await response.text()}`).toBe(true);
      return response.json();
    };
    // One task, in review: Ready and In progress are empty.
    const { key } = await post("/api/agents", { name: "coder-1", role: "coder" });
    const task = await post("/api/tasks", { title: "Tidy the parser", acceptanceCriteria: "parse('') is []" });
    const { fence } = await post(`/api/tasks/${task.id}/claim`, {}, key);
    await post(`/api/tasks/${task.id}/submit`, { fence, summary: "tidied", evidence: "2 passed" }, key);

    await page.goto(`${server.baseURL}/board`);
    const review = page.getByTestId("column-review");
    const card = review.getByTestId("task-card").filter({ hasText: "Tidy the parser" });
    await expect(card).toBeVisible();
    await card.click();
    await expect(page.getByTestId("task-drawer")).toBeVisible();
    // With the drawer open every column keeps a readable width (the board scrolls sideways instead), and the
    // cards stay clickable beside it.
    for (const status of ["ready", "in_progress", "review", "done"]) {
      expect((await page.getByTestId(`column-${status}`).boundingBox())!.width, status).toBeGreaterThanOrEqual(224);
    }
    await expect(page.getByTestId("column-review").getByRole("heading")).toHaveText(/^Review/);
    await snap(page, "layout-drawer-1440");
    await page.getByTestId("column-done").scrollIntoViewIfNeeded();
    await expect(page.getByTestId("column-done")).toBeInViewport();

    // A phone: the board opens on Review, the one column with a task, and the top strip is whole.
    await page.setViewportSize(PHONE);
    await page.goto(`${server.baseURL}/board`);
    await expect(card).toBeVisible();
    // The board scrolls once its tasks have loaded, which may be after the card is first drawn off to the side.
    const reviewFirst = async () => {
      const x = (await review.boundingBox())?.x ?? -1;
      return x >= 0 && x < PHONE.width / 2;
    };
    await expect.poll(reviewFirst).toBe(true);
    expect((await page.getByTestId("column-ready").boundingBox())!.x).toBeLessThan(0);
    const strip = page.getByTestId("team-spend");
    await expect(strip).toBeVisible();
    expect(await strip.evaluate((el) => (el.parentElement ? el.parentElement.scrollWidth <= el.parentElement.clientWidth : false))).toBe(true);
    await snap(page, "layout-board-390");

    // The task's page: Review is at the bottom of the screen, not far below the diff.
    await page.goto(`${server.baseURL}/board/${task.number}`);
    const bar = page.getByTestId("review-bar");
    await expect(bar).toBeVisible();
    const box = await bar.boundingBox();
    expect(box!.y + box!.height).toBeLessThanOrEqual(PHONE.height + 1);
    await snap(page, "layout-review-bar-390");
    await bar.getByRole("button", { name: "Review" }).click();
    await expect(page.getByRole("dialog", { name: `Review #${task.number}` })).toBeVisible();
  } finally {
    await stopQuorum(server);
  }
});

// Review like a pull request: on a flight's goal the human comments on lines of the diff (one line, a range),
// withdraws one, and requests changes; the team reworks from the comments, by file and line, and the goal comes
// back for review live, the sent comments still in place.
import { execFileSync } from "node:child_process";
import type { APIResponse, Page } from "@playwright/test";
import { acceptingReviewer, cases, coderRun, twoFailuresRepo } from "../test/fixtures/repos";
import { expect, test } from "./fixtures";
import { withTeamHub } from "./team-hub";

const PHONE = { width: 390, height: 844 };

async function fitsTheWidth(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
}

test("a human comments on lines of a goal's diff and requests changes; the team reworks from them and the goal comes back", async ({ page, snap }) => {
  test.setTimeout(300_000);
  const fixture = twoFailuresRepo();
  const coder = cases(...(fixture.coder as ReturnType<typeof cases>), {
    when: "Changes asked for on goal",
    runs: [coderRun("src/clamp.js", "  return Math.min(high, Math.max(low, n));", "  return Math.max(low, Math.min(high, n));")],
  });
  await withTeamHub(page, { orchestrator: fixture.orchestrator, coder, reviewer: acceptingReviewer }, async (server, model) => {
    // Until the worker has said how the team thinks, a flight is refused (409 scripted_team); then it starts.
    let started: APIResponse | undefined;
    await expect
      .poll(
        async () => {
          started = await page.request.post(`${server.baseURL}/api/flights`, { data: { repo: fixture.repo, goal: fixture.goal } });
          return started.status();
        },
        { timeout: 30_000 },
      )
      .toBe(201);
    const flight = (await started!.json()) as { number: number; goalTask: { number: number } };
    await page.goto(`${server.baseURL}/board/${flight.goalTask.number}`);
    const panel = page.getByTestId("flight-merge");
    await expect(panel.getByTestId("flight-stage")).toHaveText("Waiting for your review", { timeout: 180_000 });

    // One line of clamp, then a range of slug by shift-click, then one the human withdraws.
    const clamp = page.getByTestId("diff-file").filter({ hasText: "src/clamp.js" });
    await clamp.getByRole("button", { name: "Comment on src/clamp.js line 2", exact: true }).click();
    await clamp.getByTestId("comment-form").getByRole("textbox").fill("Clamp to high last: Math.max(low, Math.min(high, n)).");
    await clamp.getByRole("button", { name: "Comment", exact: true }).click();
    await expect(clamp.getByTestId("line-comment")).toContainText("Clamp to high last");
    await expect(clamp.getByTestId("line-comment")).toContainText("Pending");

    const slug = page.getByTestId("diff-file").filter({ hasText: "src/slug.js" });
    await slug.getByRole("button", { name: "Comment on src/slug.js line 1", exact: true }).click();
    await slug.getByRole("button", { name: "Comment on src/slug.js line 3", exact: true }).click({ modifiers: ["Shift"] });
    await expect(slug.getByTestId("comment-form")).toContainText("Comment on src/slug.js lines 1–3");
    await slug.getByTestId("comment-form").getByRole("textbox").fill("Fine as it is.");
    await slug.getByRole("button", { name: "Comment", exact: true }).click();
    await expect(slug.getByTestId("line-comment")).toContainText("on lines 1–3");
    await slug.getByRole("button", { name: "Comment on src/slug.js line 2", exact: true }).click();
    await slug.getByTestId("comment-form").getByRole("textbox").fill("A second thought I take back.");
    await slug.getByRole("button", { name: "Comment", exact: true }).click();
    await expect(slug.getByTestId("line-comment")).toHaveCount(2);
    await slug.getByTestId("line-comment").filter({ hasText: "A second thought" }).getByRole("button", { name: "Withdraw" }).click();
    await expect(slug.getByTestId("line-comment")).toHaveCount(1);
    await snap(page, "review-line-comments-1440");

    // Request changes: the dialog says the two comments go along.
    await page.getByTestId("task-page").getByRole("button", { name: "Review" }).click();
    const review = page.getByRole("dialog", { name: /Review #/ });
    await review.getByLabel(/Request changes/).check();
    await expect(review.getByTestId("pending-comments")).toHaveText("Your 2 line comments go with this verdict: the owner reworks from them, by file and line.");
    await review.getByLabel("Reason (required)").fill("One change to clamp, on the line.");
    await snap(page, "review-request-changes-1440");
    await review.getByRole("button", { name: "Request changes" }).click();
    await expect(review).toBeHidden();

    // The team reworks; the goal comes back for review live, with the change and the comments, sent.
    await expect(panel.getByTestId("flight-stage")).toHaveText("Working", { timeout: 30_000 });
    await expect(panel.getByTestId("flight-stage")).toHaveText("Waiting for your review", { timeout: 180_000 });
    await expect(clamp).toContainText("return Math.max(low, Math.min(high, n));");
    await expect(clamp.getByTestId("line-comment")).toContainText("Clamp to high last");
    await expect(page.getByTestId("line-comment").filter({ hasText: "Pending" })).toHaveCount(0);
    const coderAsks = (await model.requests()).filter((r) => r.role === "coder" && r.task.includes("Changes asked for on goal"));
    expect(coderAsks[0]?.task).toContain("- src/clamp.js:2: Clamp to high last");
    expect(coderAsks[0]?.task).toContain("- src/slug.js:1-3: Fine as it is.");
    expect(execFileSync("git", ["-C", fixture.repo, "show", `quorum/flight-${flight.number}:src/clamp.js`], { encoding: "utf8" })).toContain("Math.max(low, Math.min(high, n))");
    await snap(page, "review-back-1440");
    await page.setViewportSize(PHONE);
    await fitsTheWidth(page);
    await snap(page, "review-back-390");
  });
});

// A flight on a repository that lives on a forge, as a user meets it: the forge connected in Settings, the
// repository given by its URL in New flight, the team's branch pushed back to the forge, and once the human
// approves the goal, its pull request shown on the Board's card and on the goal's review. The forge is git's
// own http-backend behind a token, and a stand-in speaking GitHub's REST wire, checked against its description.
// The forge's webhook (its secret from Settings) brings a review asking changes back: the team reworks, pushes to
// the same pull request, and the goal's review shows its checks and what came back, live.
import { execFileSync } from "node:child_process";
import { acceptingReviewer, cases, coderRun } from "../test/fixtures/repos";
import { expect, test } from "./fixtures";
import { connectForge, withForge } from "./forge-hub";
import { withTeamHub } from "./team-hub";

test("a flight on a forge's repository comes back as a pull request once its goal is approved", async ({ page, snap }) => {
  test.setTimeout(300_000);
  await withForge("forge", async (forge) => {
    const { token, github, fixture, bare, url } = forge;
    const coder = cases(
      { when: "Changes asked for on pull request", runs: [coderRun("src/clamp.js", "  return Math.min(high, Math.max(low, n));", "  return Math.max(low, Math.min(high, n));")] },
      ...(fixture.coder as ReturnType<typeof cases>),
    );
    await withTeamHub(page, { orchestrator: fixture.orchestrator, coder, reviewer: acceptingReviewer }, async (server) => {
      // Settings → Forges: the host, its API, the token.
      const connected = await connectForge(page, server.baseURL, forge);
      // Its webhook: the secret shown once goes to GitHub with the URL beside it.
      await connected.getByRole("button", { name: "Generate secret" }).click();
      const secret = (await connected.getByTestId("forge-webhook-secret").locator("code").textContent()) ?? "";
      const webhookUrl = (await connected.getByTestId("forge-webhook-url").textContent()) ?? "";
      await github.addHook({ url: webhookUrl, secret });

      // New flight with the repository's URL.
      await page.goto(`${server.baseURL}/board`);
      await page.getByRole("button", { name: "New flight" }).click();
      const dialog = page.getByRole("dialog", { name: "New flight" });
      await dialog.getByLabel("Repository folder or URL").fill(url);
      await expect(dialog.getByText(/fetched into Quorum's own clone/)).toBeVisible({ timeout: 30_000 });
      await dialog.getByLabel("Goal").fill(fixture.goal);
      await dialog.getByRole("button", { name: "Start flight" }).click();
      await expect(dialog).toBeHidden();
      await page.keyboard.press("Escape");

      // The team works; its branch reaches the forge; the goal waits for review.
      const card = page.getByTestId("flight").first();
      await expect(card).toHaveAttribute("data-stage", "in_review", { timeout: 180_000 });
      const number = await card.getAttribute("data-flight-number");
      expect(execFileSync("git", ["-C", bare, "branch", "--list", `quorum/flight-${number}`], { encoding: "utf8" })).toContain(`quorum/flight-${number}`);

      // The forge's token goes stale meanwhile: the pull request cannot be opened, and its human is told why.
      const forgeId = ((await (await page.request.get(`${server.baseURL}/api/forges`)).json()) as { items: { id: string }[] }).items[0].id;
      const stale = await page.request.put(`${server.baseURL}/api/forges/${forgeId}/token`, { data: { token: "a-token-github-refuses" } });
      expect(stale.status()).toBe(200);

      // Approving the goal hands the work back as a pull request, shown on the review and on the card.
      await card.click();
      const panel = page.getByTestId("flight-merge");
      await expect(panel).toContainText(`in ${url}`);
      await page.getByTestId("task-page").getByRole("button", { name: "Review" }).click();
      const review = page.getByRole("dialog", { name: /Review #/ });
      await review.getByLabel(/Approve/).check();
      await review.getByRole("button", { name: "Approve" }).click();
      await expect(review).toBeHidden();
      const refusal = panel.getByTestId("flight-forge-refusal");
      await expect(refusal).toContainText(/refused to open its pull request for flight \d+: Bad credentials/, { timeout: 60_000 });
      await page.getByTestId("waiting-for-you").click();
      await expect(page.getByTestId("waiting-item").filter({ hasText: `Flight ${number}'s forge refuses` })).toBeVisible();
      await snap(page, "forge-refusal-1440");
      await page.keyboard.press("Escape");
      expect(await page.content()).not.toContain("a-token-github-refuses");
      // The right token again: the next turn opens it, and the refusal is gone.
      expect((await page.request.put(`${server.baseURL}/api/forges/${forgeId}/token`, { data: { token } })).status()).toBe(200);
      await expect(panel.getByTestId("flight-pull-request")).toHaveText("Pull request #1", { timeout: 60_000 });
      await expect(refusal).toHaveCount(0);
      await expect(panel).toContainText("handed back as pull request #1 on its forge");

      // On the forge: a check passes, and a review asks for a change on a line. Delivered to the hub, it becomes the
      // team's rework, pushed to the same branch; the review shows both as they happen.
      const branch = `quorum/flight-${number}`;
      const pushed = () => execFileSync("git", ["-C", bare, "rev-parse", branch], { encoding: "utf8" }).trim();
      const before = pushed();
      await github.addCheckRun({ owner: "team", repo: "slug", ref: branch, name: "ci/build", conclusion: "success" });
      const asked = await github.addReview("team", "slug", 1, {
        user: "ada",
        state: "CHANGES_REQUESTED",
        body: "Clamp the other way round.",
        comments: [{ path: "src/clamp.js", line: 2, body: "Clamp to high last: Math.max(low, Math.min(high, n))." }],
      });
      expect(asked.deliveries.map((d) => d.status)).toEqual([202]);
      await expect(panel.getByTestId("pull-request-check")).toHaveText(/ci\/build\s*passed/, { timeout: 30_000 });
      const cameBack = panel.getByTestId("pull-request-came-back");
      await expect(cameBack).toContainText("Changes asked for on pull request #1 by @ada");
      await expect(cameBack).toContainText("integrated: the pull request has it", { timeout: 120_000 });
      await expect.poll(pushed, { message: "the rework pushed to the pull request's branch", timeout: 30_000 }).not.toBe(before);
      expect(execFileSync("git", ["-C", bare, "show", `${branch}:src/clamp.js`], { encoding: "utf8" })).toContain("Math.max(low, Math.min(high, n))");
      // Merged on the forge, not here: no Merge button, no command to merge the hub's own clone.
      await expect(panel.getByRole("button", { name: /Merge into/ })).toHaveCount(0);
      await expect(panel.getByTestId("merge-command")).toHaveCount(0);
      await expect(page.getByTestId("task-page")).not.toContainText("/remotes/");
      await snap(page, "forge-flight-review-1440");
      await page.goto(`${server.baseURL}/board`);
      await expect(page.getByTestId("flight-card-pull-request").first()).toHaveText("pull request #1 · checks: 1 passed");
      await snap(page, "forge-flight-card-1440");
      // The Room: the orchestrator said in the flight's thread what came back from the pull request.
      await page.goto(`${server.baseURL}/room?flight=${number}`);
      await expect(page.getByText(`Pull request #1 of flight ${number} came back`).first()).toBeVisible();
      await snap(page, "forge-flight-room-1440");
      await page.goto(`${server.baseURL}/board`);
      await page.setViewportSize({ width: 390, height: 844 });
      await snap(page, "forge-flight-card-390");
      expect(await page.content()).not.toContain(token);
    });
  });
});

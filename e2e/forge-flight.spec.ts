// A flight on a repository that lives on a forge, as a user meets it: the forge connected in Settings, the
// repository given by its URL in New flight, the team's branch pushed back to the forge, and once the human
// approves the goal, its pull request shown on the Board's card and on the goal's review. The forge is git's
// own http-backend behind a token, and a stand-in speaking GitHub's REST wire, checked against its description.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { startGitHttpServer } from "../test/fixtures/git-http-server";
import { startGitHubStandIn } from "../test/fixtures/github-stand-in";
import { acceptingReviewer, twoFailuresRepo } from "../test/fixtures/repos";
import { expect, test } from "./fixtures";
import { withTeamHub } from "./team-hub";

test("a flight on a forge's repository comes back as a pull request once its goal is approved", async ({ page, snap }) => {
  test.setTimeout(300_000);
  const token = `e2e-forge-${Date.now().toString(36)}-token`;
  const git = await startGitHttpServer(token);
  const github = await startGitHubStandIn(token);
  try {
    const fixture = twoFailuresRepo();
    const bare = join(git.root, "team", "slug.git");
    execFileSync("git", ["clone", "--quiet", "--bare", fixture.repo, bare]);
    const url = `${git.origin}/team/slug.git`;
    await withTeamHub(page, { orchestrator: fixture.orchestrator, coder: fixture.coder, reviewer: acceptingReviewer }, async (server) => {
      // Settings → Forges: the host, its API, the token.
      await page.goto(`${server.baseURL}/settings`);
      const forges = page.getByRole("region", { name: "Forges" });
      await forges.getByLabel("Host").fill(git.host);
      await forges.getByLabel("API URL").fill(github.apiUrl);
      await forges.getByLabel("Token").fill(token);
      await forges.getByRole("button", { name: "Add forge" }).click();
      await expect(forges.getByText(git.host, { exact: true })).toBeVisible();

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

      // Approving the goal hands the work back as a pull request, shown on the review and on the card.
      await card.click();
      const panel = page.getByTestId("flight-merge");
      await expect(panel).toContainText(`in ${url}`);
      await page.getByTestId("task-page").getByRole("button", { name: "Review" }).click();
      const review = page.getByRole("dialog", { name: /Review #/ });
      await review.getByLabel(/Approve/).check();
      await review.getByRole("button", { name: "Approve" }).click();
      await expect(review).toBeHidden();
      await expect(panel.getByTestId("flight-pull-request")).toHaveText("Pull request #1", { timeout: 60_000 });
      await expect(panel).toContainText("handed back as pull request #1 on its forge");
      // Merged on the forge, not here: no Merge button, no command to merge the hub's own clone.
      await expect(panel.getByRole("button", { name: /Merge into/ })).toHaveCount(0);
      await expect(panel.getByTestId("merge-command")).toHaveCount(0);
      await expect(page.getByTestId("task-page")).not.toContainText("/remotes/");
      await snap(page, "forge-flight-review-1440");
      await page.goto(`${server.baseURL}/board`);
      await expect(page.getByTestId("flight-card-pull-request").first()).toHaveText("pull request #1");
      await snap(page, "forge-flight-card-1440");
      await page.setViewportSize({ width: 390, height: 844 });
      await snap(page, "forge-flight-card-390");
      expect(await page.content()).not.toContain(token);
    });
    expect(await github.violations()).toEqual([]);
  } finally {
    await github.stop();
    await git.close();
  }
});

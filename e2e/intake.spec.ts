// Issue intake as a user meets it: in Settings → Forges a human gives the forge an intake label, sees where its
// webhook goes and a secret shown once; an issue labelled on a repository the hub has flown there is found at the
// orchestrator's next look (polling, on by default) and waits for them under "waiting for you"; they open it, edit
// the goal the issue's words prefilled, start it, and its flight's card shows on the Board. The forge is git's own
// http-backend behind a token and a stand-in speaking GitHub's REST wire, checked against GitHub's description.
import { acceptingReviewer } from "../test/fixtures/repos";
import { seriousViolations } from "./axe";
import { expect, test } from "./fixtures";
import { connectForge, withForge } from "./forge-hub";
import { documentOverflow } from "./page-walk";
import { withTeamHub } from "./team-hub";

test("an issue labelled for the team waits for a human, who edits its goal and starts its flight", async ({ page, snap }) => {
  test.setTimeout(300_000);
  await withForge("intake", async (forge) => {
    const { token, git, github, fixture, url } = forge;
    await withTeamHub(page, { orchestrator: fixture.orchestrator, coder: fixture.coder, reviewer: acceptingReviewer }, async (server) => {
      // Settings → Forges: connect the forge, then give it the label whose issues the team is offered.
      const entry = await connectForge(page, server.baseURL, forge);
      await expect(entry.getByTestId("forge-settings")).toContainText("Give a label to have issues carrying it wait for you as proposed flights");
      await entry.getByLabel("Intake label").fill("quorum");
      await entry.getByRole("button", { name: "Save label" }).click();
      await expect(entry.getByTestId("forge-settings")).toContainText('An open issue labelled "quorum"');
      await expect(entry.getByLabel("Ask the forge every minute")).toBeChecked();

      // The webhook: the URL to paste into GitHub, and a secret shown this once.
      await expect(entry.getByTestId("forge-webhook-url")).toHaveText(`${server.baseURL}/api/forges/${encodeURIComponent(git.host)}/webhook`);
      await expect(entry.getByTestId("forge-webhook-state")).toContainText("no secret yet");
      await entry.getByRole("button", { name: "Generate secret" }).click();
      const shown = entry.getByTestId("forge-webhook-secret");
      await expect(shown).toContainText("shown only now");
      const secret = (await shown.locator("code").textContent()) ?? "";
      expect(secret).toMatch(/^[0-9a-f]{64}$/);
      await expect(entry.getByTestId("forge-webhook-state")).toContainText("secret set");
      await entry.scrollIntoViewIfNeeded();
      await snap(page, "intake-forge-settings-1440");
      expect(await seriousViolations(page, "Settings → Forges with its settings at 1440")).toEqual([]);
      await page.setViewportSize({ width: 390, height: 844 });
      await entry.getByTestId("forge-settings").scrollIntoViewIfNeeded();
      expect(await documentOverflow(page)).toBeNull();
      await snap(page, "intake-forge-settings-390");
      await page.setViewportSize({ width: 1440, height: 900 });
      await shown.getByRole("button", { name: "I have stored it" }).click();
      await expect(shown).toHaveCount(0);
      // Never again: not on the page, not in what it reads.
      await page.reload();
      await expect(entry.getByTestId("forge-webhook-state")).toContainText("secret set");
      expect(await page.content()).not.toContain(secret);
      expect(await (await page.request.get(`${server.baseURL}/api/forges`)).text()).not.toContain(secret);

      // An issue labelled on the forge, on a repository the hub flies: the orchestrator's next look proposes it.
      const issue = await github.addIssue({
        owner: "team",
        repo: "slug",
        title: "Slugs and clamps are broken",
        body: "slug('Hello World') should be 'hello-world', and clamp should keep numbers in range.",
        labels: ["quorum"],
      });
      const first = await page.request.post(`${server.baseURL}/api/flights`, { data: { repo: url, goal: fixture.goal } });
      expect(first.status()).toBe(201);
      await page.goto(`${server.baseURL}/board`);
      await page.getByTestId("waiting-for-you").click();
      const item = page.getByTestId("waiting-item").filter({ hasText: `Issue #${issue.number} on team/slug is labelled for the team` });
      // The open inbox follows the journal: the proposal appears without a reload.
      await expect(item).toBeVisible({ timeout: 90_000 });
      await expect(item).toContainText("Slugs and clamps are broken");
      await item.click();

      const dialog = page.getByRole("dialog", { name: `Issue #${issue.number} on team/slug` });
      const goal = dialog.getByLabel("Goal");
      await expect(goal).toHaveValue("Slugs and clamps are broken\n\nslug('Hello World') should be 'hello-world', and clamp should keep numbers in range.");
      await snap(page, "intake-proposal-1440");
      expect(await seriousViolations(page, "the proposed flight's dialog at 1440")).toEqual([]);
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await documentOverflow(page)).toBeNull();
      await snap(page, "intake-proposal-390");
      await page.setViewportSize({ width: 1440, height: 900 });

      const edited = "Make the repository's test suite pass: slugs lower-case and dashed, clamp in range.";
      await goal.fill(edited);
      await dialog.getByRole("button", { name: "Start flight" }).click();
      await expect(dialog).toBeHidden();
      await expect(page).toHaveURL(/\/board$/);
      const card = page.getByTestId("flight").filter({ hasText: edited });
      await expect(card).toBeVisible();
      await expect(card).toHaveAttribute("data-flight-number", "2");
      await snap(page, "intake-flight-card-1440");
      // Started: it waits no more.
      await page.getByTestId("waiting-for-you").click();
      await expect(page.getByTestId("waiting-item").filter({ hasText: `Issue #${issue.number} on team/slug` })).toHaveCount(0);
      expect(await page.content()).not.toContain(token);
    });
  });
});

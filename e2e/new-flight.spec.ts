// New flight as a user meets it: on the shared (scripted) server the dialog says why it cannot fly your
// repository and how to give the team a model, and says why a folder will not do; on a Quorum whose team
// thinks through the stand-in model server, the dialog starts a flight on a fixture repository, the Board
// shows it and its tasks live, the goal's review shows the branch's diff, and after the human accepts it Merge
// is refused over uncommitted work in git's words, then makes a merge commit with the user's own work.
import type { Page } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startGitHttpServer } from "../test/fixtures/git-http-server";
import { withTeamHub } from "./team-hub";
import { acceptingReviewer, checkoutState, twoFailuresRepo } from "../test/fixtures/repos";
import { expect, test } from "./fixtures";

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/** Nothing of the page scrolls sideways at this size. */
async function fitsTheWidth(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
}

test("with a scripted team, New flight says how to set QUORUM_MODEL, still looks at the folder, and says why a folder will not do", async ({ page, signIn, snap }) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page);
  await page.goto("/board");
  await page.getByRole("button", { name: "New flight" }).click();
  const dialog = page.getByRole("dialog", { name: "New flight" });
  // The path field has the focus; the note says why nothing can start and what to do.
  await expect(dialog.getByLabel("Repository folder")).toBeFocused();
  const note = dialog.getByTestId("no-model-note");
  await expect(note).toContainText("The team runs scripted: no model is configured, and its script only flies the demo.");
  await expect(note).toContainText("QUORUM_MODEL=");
  await expect(note).toContainText("docs/OPERATING.md, under Configuration");
  await expect(dialog.getByRole("button", { name: "Start flight" })).toBeDisabled();

  // A folder that is no git repository: the reason, next to the path.
  const plain = mkdtempSync(join(tmpdir(), "quorum-e2e-plain-"));
  await dialog.getByLabel("Repository folder").fill(plain);
  await expect(dialog.getByLabel("Repository folder")).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByText(`${plain} is not a git repository`)).toBeVisible();
  // It is the dialog's answer, not the page failing to load.
  await expect(page.getByTestId("page-error")).toHaveCount(0);
  await snap(page, "new-flight-not-a-repository-1440");

  // Typing on: the old path's reason goes at once, before the new path is looked at.
  await dialog.getByLabel("Repository folder").pressSequentially("/x");
  await expect(dialog.getByText(`${plain} is not a git repository`)).toHaveCount(0);

  // Each field is checked as it is typed, against what it holds now.
  await dialog.getByLabel("Allowance (tokens)").fill("12");
  await expect(dialog.getByText("Whole tokens, 1,000 to 1,000,000,000.")).toBeVisible();
  await dialog.getByLabel("Allowance (tokens)").fill("12000");
  await expect(dialog.getByText("Whole tokens, 1,000 to 1,000,000,000.")).toHaveCount(0);
  await dialog.getByLabel("Allowance (tokens)").fill("");
  await dialog.getByLabel("Goal").fill("x");
  await dialog.getByLabel("Goal").fill("");
  await expect(dialog.getByText("A flight needs a goal.")).toBeVisible();

  // A repository: where the flight would start from, and its test command detected.
  const { repo } = twoFailuresRepo();
  await dialog.getByLabel("Repository folder").fill(repo);
  await expect(dialog.getByLabel("Test command")).toHaveValue("npm test");
  await expect(dialog.getByText(/Starts from main at [0-9a-f]{7}/)).toBeVisible();
  await expect(dialog.getByText("Detected from the repository: npm test.")).toBeVisible();
  await expect(dialog.getByText(/Empty: the default, 400,000/)).toBeVisible();
  await snap(page, "new-flight-scripted-1440");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  // On a phone, from the Room.
  await page.setViewportSize(PHONE);
  await page.goto("/room/general");
  await page.getByRole("button", { name: "New flight" }).click();
  await expect(page.getByRole("dialog", { name: "New flight" }).getByTestId("no-model-note")).toBeVisible();
  await fitsTheWidth(page);
  await snap(page, "new-flight-scripted-390");
});

test("New flight takes a repository's https URL: refused without its forge's token, fetched with it, the token shown nowhere", async ({ page, signIn, snap }) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page);
  const token = `e2e-forge-${Date.now().toString(36)}-token`;
  const forge = await startGitHttpServer(token);
  try {
    const { repo } = twoFailuresRepo();
    execFileSync("git", ["clone", "--quiet", "--bare", repo, join(forge.root, "team", "slug.git")]);
    const url = `${forge.origin}/team/slug.git`;
    await page.goto("/board");
    await page.getByRole("button", { name: "New flight" }).click();
    const dialog = page.getByRole("dialog", { name: "New flight" });
    const field = dialog.getByLabel("Repository folder or URL");

    // No token for the host yet: git's refusal, and where the token goes.
    await field.fill(url);
    await expect(dialog.getByText(`git could not fetch ${url} (no token for ${forge.host} in Settings → Forges)`)).toBeVisible({ timeout: 20_000 });
    // A URL with credentials in it is refused before anything is fetched.
    await field.fill(url.replace("http://", `http://someone:${token}@`));
    await expect(dialog.getByText(/put no credentials in the repository's URL/)).toBeVisible({ timeout: 20_000 });

    // With the forge connected (as Settings → Forges does), the hub fetches it and says where the flight starts.
    expect((await page.request.post("/api/forges", { data: { host: forge.host, apiUrl: `${forge.origin}/api/v3`, token } })).status()).toBe(201);
    await field.fill(`${url} `);
    await field.fill(url);
    await expect(dialog.getByText(new RegExp(`Starts from main at [0-9a-f]{7} of ${url.replaceAll(".", "\\.")}, fetched into Quorum's own clone`))).toBeVisible({
      timeout: 30_000,
    });
    await expect(dialog.getByLabel("Test command")).toHaveValue("npm test");
    // A repository on a forge comes back as a pull request: a draft as soon as its tests pass, if the human asks.
    await expect(dialog.getByLabel(/Open a draft pull request as soon as the tests pass/)).not.toBeChecked();
    expect(forge.requests.some((r) => r.authorized)).toBe(true);
    expect(await page.content()).not.toContain(token);
    await snap(page, "new-flight-remote-1440");
  } finally {
    await forge.close();
  }
});

test("New flight starts a flight on a repository; the Board shows it and its tasks; the goal's review shows the branch's diff and the merge", async ({ page, snap }) => {
  test.setTimeout(300_000);
  const fixture = twoFailuresRepo();
  const before = checkoutState(fixture.repo);
  await withTeamHub(page, { orchestrator: fixture.orchestrator, coder: fixture.coder, reviewer: acceptingReviewer }, async (server) => {
    await page.goto(`${server.baseURL}/board`);
    await expect(page.getByTestId("flights-empty")).toBeVisible();

    await page.getByRole("button", { name: "New flight" }).click();
    const dialog = page.getByRole("dialog", { name: "New flight" });
    await expect(dialog.getByTestId("no-model-note")).toHaveCount(0);
    await dialog.getByLabel("Repository folder").fill(fixture.repo);
    await dialog.getByLabel("Goal").fill(fixture.goal);
    await expect(dialog.getByLabel("Test command")).toHaveValue("npm test");
    await expect(dialog.getByText("Detected from the repository: npm test.")).toBeVisible();
    await snap(page, "new-flight-live-1440");
    await dialog.getByRole("button", { name: "Start flight" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId("toast").filter({ hasText: /Flight \d+ started/ })).toBeVisible();

    // The Board shows the flight, then the tasks the orchestrator planned, each marked with its flight.
    const flight = page.getByTestId("flight").first();
    await expect(flight).toContainText(fixture.goal);
    const number = await flight.getAttribute("data-flight-number");
    await expect(flight.getByTestId("flight-branch")).toHaveText(`quorum/flight-${number}`);
    await expect(flight).toContainText(/\/ 400,000 tokens/);
    await expect(flight.getByTestId("flight-tasks")).toContainText("2 tasks", { timeout: 90_000 });
    await expect(page.getByTestId("task-card").filter({ hasText: "Make slug lower-case and dashed" }).getByTestId("flight-mark")).toHaveText(`Flight ${number}`);
    await expect(page.getByTestId("task-card").filter({ hasText: "Make clamp keep numbers in range" })).toBeVisible();
    await snap(page, "new-flight-board-1440");

    // The suite goes green on the branch, and the goal waits for the human's review.
    await expect(flight).toHaveAttribute("data-status", "green", { timeout: 180_000 });
    await expect(flight.getByTestId("flight-tasks")).toContainText("2 done", { timeout: 60_000 });
    // Starting opened the goal's drawer; close it to see the whole Board on a phone.
    await page.keyboard.press("Escape");
    await page.setViewportSize(PHONE);
    await fitsTheWidth(page);
    await snap(page, "new-flight-board-390");
    await page.setViewportSize(DESKTOP);

    // Each task here was accepted on a red run (the other task's test still failed): the card opens the monitor's finding.
    await flight.click();
    await expect(page).toHaveURL(/\/board\/\d+(#finding-FM-3-2-\d+)?$/);
    const panel = page.getByTestId("flight-merge");
    await expect(panel).toContainText(`Flight ${number} works on quorum/flight-${number} in ${fixture.repo}, from main at ${before.head.slice(0, 7)}`);
    await expect(panel.getByTestId("flight-stage")).toHaveText("Waiting for your review");
    await expect(panel.getByRole("button", { name: "Merge into main" })).toHaveCount(0);
    const diff = page.getByTestId("diff");
    await expect(diff).toContainText(`2 files changed, +2 −2 — quorum/flight-${number} against the commit the flight started from (${before.head.slice(0, 7)})`, {
      timeout: 30_000,
    });
    await expect(page.getByTestId("diff-file").filter({ hasText: "src/clamp.js" })).toContainText("return Math.min(high, Math.max(low, n));");
    await expect(page.getByTestId("diff-file").filter({ hasText: "src/slug.js" })).toContainText("+1 −1");
    await snap(page, "new-flight-review-1440");
    await page.setViewportSize(PHONE);
    await fitsTheWidth(page);
    await snap(page, "new-flight-review-390");

    // The user's checkout is as it was.
    expect(checkoutState(fixture.repo)).toEqual(before);
    await page.setViewportSize(DESKTOP);

    // The human accepts the goal on its page; the flight says it is accepted and offers Merge.
    await page.getByTestId("task-page").getByRole("button", { name: "Review" }).click();
    const review = page.getByRole("dialog", { name: /Review #/ });
    await review.getByLabel(/Approve/).check();
    await review.getByRole("button", { name: "Approve" }).click();
    await expect(review).toBeHidden();
    await expect(panel.getByTestId("flight-stage")).toHaveText("Accepted, not merged yet");
    await expect(panel.getByTestId("merge-command")).toHaveText(`git -C ${fixture.repo} merge quorum/flight-${number}`);

    // Uncommitted work on a file the flight changed: Merge is refused in git's words, and nothing moves.
    writeFileSync(join(fixture.repo, "src/clamp.js"), "// my own idea, not saved yet\n");
    await panel.getByRole("button", { name: "Merge into main" }).click();
    const refused = panel.getByTestId("merge-refused");
    await expect(refused).toContainText("Not merged: nothing changed.");
    await expect(refused).toContainText(/local changes to the following files would be overwritten[\s\S]*src\/clamp\.js/);
    await snap(page, "flight-merge-refused-1440");
    expect(checkoutState(fixture.repo).head).toBe(before.head);
    expect(readFileSync(join(fixture.repo, "src/clamp.js"), "utf8")).toBe("// my own idea, not saved yet\n");

    // The user drops that and commits other work meanwhile: Merge makes a merge commit of the two.
    const git = (...args: string[]) => execFileSync("git", ["-C", fixture.repo, "-c", "user.name=Ada", "-c", "user.email=ada@example.com", ...args], { encoding: "utf8" }).trim();
    git("checkout", "--", "src/clamp.js");
    writeFileSync(join(fixture.repo, "NOTES.md"), "Strings and numbers.\n");
    git("add", "NOTES.md");
    git("commit", "-qm", "Notes, written while the team worked");
    const theirs = git("rev-parse", "HEAD");
    await panel.getByRole("button", { name: "Merge into main" }).click();
    await expect(panel.getByTestId("flight-stage")).toHaveText("Merged");
    const mergeCommit = git("rev-parse", "main");
    await expect(panel.getByTestId("flight-merged")).toContainText(`Merged into main at ${mergeCommit.slice(0, 7)}`);
    expect(git("rev-list", "--parents", "-n", "1", "main").split(" ")[1]).toBe(theirs);
    expect(readFileSync(join(fixture.repo, "src/clamp.js"), "utf8")).toContain("Math.min(high, Math.max(low, n))");
    expect(readFileSync(join(fixture.repo, "NOTES.md"), "utf8")).toBe("Strings and numbers.\n");
    expect(git("status", "--porcelain")).toBe("");
    await snap(page, "flight-merged-1440");
    await page.setViewportSize(PHONE);
    await fitsTheWidth(page);
    await snap(page, "flight-merged-390");
    await page.setViewportSize(DESKTOP);

    // On the Board the merged flight folds away under "1 finished".
    await page.goto(`${server.baseURL}/board`);
    await expect(page.getByTestId("flight")).toHaveCount(0);
    await page.getByTestId("flights-finished").click();
    await expect(page.getByTestId("flight").first().getByTestId("flight-stage")).toHaveText("Merged");
  });
});

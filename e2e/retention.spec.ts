// Archived history in the journal's views (DESIGN §4): where what a view shows meets an archived month it
// says so, with the command that brings the month back — between two events, at the end of a list, over a
// run's timeline and a task's audit.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./fixtures";
import { root, serverEnv } from "./server";

test("the Journal, a run's timeline and a task's audit say where their history is archived", async ({ page, signIn, cli, snap }) => {
  // Four CLI commands, each starting Node and connecting as the database's owner, beside the browser.
  test.setTimeout(180_000);
  const env = serverEnv(process.env.QUORUM_E2E_HOME!, Number(process.env.QUORUM_E2E_PORT));
  const made = spawnSync(join(root, "node_modules", ".bin", "tsx"), [join(root, "test/processes/old-months.ts")], { cwd: root, env, encoding: "utf8" });
  expect(made.status, made.stderr).toBe(0);
  const seeded = JSON.parse(made.stdout.trim().split("\n").at(-1)!) as {
    humanId: string;
    humanName: string;
    september: { id: string; number: number; runId: string };
  };
  // August and September leave for files; August comes back, so September is a gap in what the journal shows.
  const archived = await cli(["journal", "archive", "--before", "2026-10-01"]);
  const files = [...archived.matchAll(/→ (\S+events-2026-(08|09)\.jsonl\.gz)/g)].map((m) => m[1]);
  expect(files).toHaveLength(2);
  await cli(["journal", "restore", files[0]]);
  try {
    // Signing in today is the human's newest event: above the gap; August's work below it.
    await signIn(page, seeded.humanName);
    await page.goto(`/journal?actor=${seeded.humanId}`);
    const gap = page.getByTestId("archived-line");
    await expect(gap).toHaveText(`Events of September 2026 are archived (quorum journal restore ${files[1]}).`);
    await expect(page.getByTestId("journal-row").first()).toHaveAttribute("data-kind", "HumanSignedIn");
    await expect(page.getByTestId("journal-row").last()).toHaveAttribute("data-kind", "PrincipalCreated");
    const order = await page
      .locator('ul[aria-label="Journal events"] > li')
      .evaluateAll((items) => items.map((li) => (li as HTMLElement).dataset.kind ?? (li as HTMLElement).dataset.testid));
    const line = order.indexOf("archived-line");
    expect(order.slice(0, line)).toContain("HumanSignedIn");
    expect(order.slice(line)).toContain("TaskReviewed");
    await snap(page, "journal-archived-gap");
    // The line reads in both themes (axe: no serious or critical violation).
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const result = await new AxeBuilder({ page }).include("[data-testid=archived-line]").withTags(["wcag2a", "wcag2aa"]).analyze();
      expect(result.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${scheme}: ${v.id}`)).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: "light" });

    // A list that reaches its end at an archived month says everything before it is archived.
    await page.goto(`/journal?run=${seeded.september.runId}`);
    await expect(page.getByTestId("archived-line")).toHaveText(`Events before 1 Oct 2026 are archived (quorum journal restore ${files[1]}).`);
    await page.goto(`/journal?run=${seeded.september.runId}&view=timeline`);
    await expect(page.getByTestId("archived-line")).toHaveText(`This run's events are archived with September 2026 (quorum journal restore ${files[1]}).`);
    // Said in place, not as a page that failed to load.
    await expect(page.getByTestId("page-error")).toHaveCount(0);
    await snap(page, "timeline-archived");
    await page.goto(`/journal?task=${seeded.september.id}&view=audit`);
    await expect(page.getByTestId("archived-line")).toHaveText(`This task's history is archived with September 2026 (quorum journal restore ${files[1]}).`);
    await expect(page.getByText("No verdict in the journal.")).toBeVisible();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/journal?actor=${seeded.humanId}`);
    await expect(page.getByTestId("archived-line")).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await snap(page, "journal-archived-gap-phone");
  } finally {
    await cli(["journal", "restore", files[1]]);
  }
  // Restored, the month is history again: no line, and the run's timeline is back.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/journal?run=${seeded.september.runId}&view=timeline`);
  await expect(page.getByTestId("run-result")).toContainText("Ended done: closed the books");
  await expect(page.getByTestId("archived-line")).toHaveCount(0);
});

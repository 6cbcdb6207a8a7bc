// axe (WCAG 2 A and AA) on the page as it stands, light and dark: its serious or critical violations, in words.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

export async function seriousViolations(page: Page, where: string): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
    for (const v of result.violations) {
      if (v.impact === "serious" || v.impact === "critical")
        found.push(
          `${where} (${scheme}): ${v.id} — ${v.nodes
            .map((n) => n.target.join(" "))
            .slice(0, 3)
            .join(" | ")}`,
        );
    }
  }
  return found;
}

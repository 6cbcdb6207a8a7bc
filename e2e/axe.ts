// axe on the page as it stands, in both themes: its serious or critical violations, in words.
import type { Page } from "@playwright/test";
import { axeFindings } from "./page-walk";

export async function seriousViolations(page: Page, where: string): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    found.push(...(await axeFindings(page, `${where} (${scheme})`)));
  }
  return found;
}

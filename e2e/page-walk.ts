// The walk of every page that the page-wide checks share (e2e/pages.spec.ts): what to visit — the rail's pages,
// found from the rail itself so a new page is covered the day it gets its line there, and a few deeper ones —
// and the checks made on each visit.
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { type AgentApi, expect, type ResponseBody, uniqueName } from "./fixtures";

export interface Visit {
  path: string;
  /** The tab's title the page must have, where the walk knows it. */
  title?: string;
}

/** Something on each page (an agent with a task in review, one holding a long-titled task), then the visits. */
export async function pagesToVisit(page: Page, agent: { id: string }, api: AgentApi): Promise<Visit[]> {
  const task: ResponseBody = await (await page.request.post("/api/tasks", { data: { title: `Walk ${uniqueName("t")}`, acceptanceCriteria: "it fits" } })).json();
  const claimed = await api.post(`/api/tasks/${task.id}/claim`);
  await api.post(`/api/tasks/${task.id}/submit`, { fence: claimed.body.fence, summary: "fits", evidence: "✓ 1 passed" });
  // A task held under a long title: the roster's lease column must not widen the page for it.
  const held: ResponseBody = await (
    await page.request.post("/api/tasks", { data: { title: `Walk ${"with a title long enough to fill a row ".repeat(4)}${uniqueName("t")}`, acceptanceCriteria: "it fits" } })
  ).json();
  expect((await api.post(`/api/tasks/${held.id}/claim`)).status).toBe(200);
  await api.post("/api/rooms/general/messages", { body: "hello from the coder", performative: "INFORM" });
  // A self-reported call, so the Bill's self-reported mark is walked too.
  await api.post("/api/usage", { model: "claude-walk", inputTokens: 1200, outputTokens: 300 });

  await page.goto("/room");
  // The shell draws a skeleton first: take the links once the rail is whole (its foot's link last).
  const rail = page.getByRole("navigation", { name: "Pages" });
  await expect(rail.getByRole("link", { name: "API reference" })).toBeVisible();
  // A link's label is its words without the counts beside them ("Board", not "Board 1 (1 waiting for you)").
  const links = await rail.getByRole("link").evaluateAll((anchors) =>
    anchors.map((a) => {
      const words = a.cloneNode(true) as HTMLElement;
      for (const count of words.querySelectorAll(".sr-only, [aria-hidden=true]")) count.remove();
      return { path: new URL((a as HTMLAnchorElement).href).pathname, label: (words.textContent ?? "").replace(/\d+/g, "").trim() };
    }),
  );
  const visits: Visit[] = [
    ...links.filter((l) => l.path.startsWith("/")).map((l) => ({ path: l.path, title: `${l.label} · Quorum` })),
    { path: "/room/general", title: "#general · Room · Quorum" },
    { path: "/experiments", title: "Experiments · Lab · Quorum" },
    { path: "/decisions/escalations" },
    { path: `/agents/${agent.id}` },
    { path: `/board?task=${task.id}` },
    { path: `/board/${task.number}`, title: `#${task.number} · Board · Quorum` },
    { path: "/no-such-page", title: "Not found · Quorum" },
  ];
  const unique = [...new Map(visits.map((v) => [v.path, v])).values()];
  expect(unique.length).toBeGreaterThanOrEqual(12);
  return unique;
}

/** Opens a page and waits until it has drawn its data; the page's own status comes back. */
export async function openSettled(page: Page, path: string): Promise<number | undefined> {
  const answer = await page.goto(path);
  await expect(page.getByTestId("top-strip")).toBeVisible();
  await expect(page.locator("main [aria-busy=true]")).toHaveCount(0);
  return answer?.status();
}

/** The axe rules that read colours: all a second theme can change on the same page. */
export const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

/** axe (WCAG 2 A and AA, or only `rules`) on the page as it stands: its serious or critical violations, in words. */
export async function axeFindings(page: Page, where: string, rules?: string[]): Promise<string[]> {
  // Only violations are read: axe then describes one passing node per rule, not every one.
  const axe = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).options({ resultTypes: ["violations"] });
  const result = await (rules ? axe.withRules(rules) : axe).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${where}: ${v.id} — ${v.nodes.length} × ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(" "))
          .join(" | ")}`,
    );
}

/** Whether the document reaches past the window's right edge, naming the outermost element that does. */
export async function documentOverflow(page: Page): Promise<string | null> {
  const { scrollWidth, innerWidth, culprit } = await page.evaluate(() => {
    const clipped = (el: Element) => {
      // An absolutely placed element escapes a scroller that is not positioned: only a positioned one clips it.
      const position = getComputedStyle(el).position;
      if (position === "fixed") return true;
      let contained = position !== "absolute";
      for (let up = el.parentElement; up; up = up.parentElement) {
        const style = getComputedStyle(up);
        if (contained && style.overflowX !== "visible") return true;
        if (style.position !== "static") contained = true;
      }
      return false;
    };
    const past = [...document.querySelectorAll("body *")].find((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && !clipped(el));
    const name = past ? `${past.tagName.toLowerCase()}${past.id ? `#${past.id}` : ""}.${String(past.getAttribute("class") ?? "").replace(/\s+/g, ".")}` : "";
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, culprit: name };
  });
  return scrollWidth > innerWidth ? `${scrollWidth} px wide (${culprit})` : null;
}

/** The scrollers (the document among them) whose content is wider than they are, but for those made to scroll sideways (`data-scrolls="sideways"`: the board's columns). */
export async function sidewaysScrollers(page: Page): Promise<string[]> {
  return await page.evaluate(() => {
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.getAttribute("data-testid") ? `[data-testid=${el.getAttribute("data-testid")}]` : ""}.${String(el.getAttribute("class") ?? "")
        .split(/\s+/)
        .slice(0, 4)
        .join(".")}`;
    const scrollers = [document.documentElement, ...document.querySelectorAll("body *")].filter((el) => {
      const overflow = getComputedStyle(el).overflowX;
      if (el.getAttribute("data-scrolls") === "sideways") return false;
      return el === document.documentElement || overflow === "auto" || overflow === "scroll";
    });
    return scrollers.filter((el) => el.scrollWidth > el.clientWidth).map((el) => `${name(el)} ${el.scrollWidth} > ${el.clientWidth}`);
  });
}

/** test-results/screens/<page>-<width>.png; ids stay out of the names (/agents/<id> is agent-detail). */
export function screenshotFile(path: string, width: number): string {
  const name = path.startsWith("/agents/")
    ? "agent-detail"
    : path.startsWith("/board?")
      ? "board-drawer"
      : /^\/board\/\d+$/.test(path)
        ? "board-task-page"
        : path.replace(/^\//, "").replace(/[^a-z0-9]+/gi, "-");
  return join("test-results", "screens", `${name}-${width}.png`);
}

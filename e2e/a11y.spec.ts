// axe (WCAG 2 A and AA) on every page, light and dark: no serious or critical violation. The pages come
// from the rail, plus a room, the escalations, an agent, the task drawer and a task's own page.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, uniqueName, type ResponseBody } from "./fixtures";

// One test per theme, so the two run side by side on the suite's workers.
for (const scheme of ["light", "dark"] as const) {
  test(`every page passes axe with no serious or critical violation (${scheme})`, async ({ page, signIn, registerAgent, asAgent }) => {
    test.setTimeout(180_000);
    await signIn(page, uniqueName("axe"));
    const agent = await registerAgent(uniqueName("coder"), "coder");
    const api = asAgent(agent);
    const task: ResponseBody = await (await page.request.post("/api/tasks", { data: { title: `Axe ${uniqueName("t")}`, acceptanceCriteria: "it reads" } })).json();
    const claimed = await api.post(`/api/tasks/${task.id}/claim`);
    await api.post(`/api/tasks/${task.id}/submit`, { fence: claimed.body.fence, summary: "reads", evidence: "✓ 1 passed" });
    await api.post("/api/rooms/general/messages", { body: "hello from the coder", performative: "INFORM" });
    // A self-reported call, so the Bill's self-reported mark is checked too.
    await api.post("/api/usage", { model: "claude-axe", inputTokens: 1200, outputTokens: 300 });

    await page.goto("/room");
    // The shell draws a skeleton first: take the links once the rail is whole (its foot's link last).
    const rail = page.getByRole("navigation", { name: "Pages" });
    await expect(rail.getByRole("link", { name: "API reference" })).toBeVisible();
    const hrefs = await rail.getByRole("link").evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
    const paths = [
      ...new Set([...hrefs.filter((h) => h.startsWith("/")), "/room/general", "/decisions/escalations", `/agents/${agent.id}`, `/board?task=${task.id}`, `/board/${task.number}`]),
    ];

    const found: string[] = [];
    await page.emulateMedia({ colorScheme: scheme });
    for (const path of paths) {
      await page.goto(path);
      await expect(page.getByTestId("top-strip")).toBeVisible();
      await expect(page.locator("main [aria-busy=true]")).toHaveCount(0);
      const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
      for (const v of result.violations) {
        if (v.impact !== "serious" && v.impact !== "critical") continue;
        found.push(
          `${path} (${scheme}): ${v.id} — ${v.nodes.length} × ${v.nodes
            .slice(0, 3)
            .map((n) => n.target.join(" "))
            .join(" | ")}`,
        );
      }
    }
    expect(found).toEqual([]);
  });
}

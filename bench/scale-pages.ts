// Each page's time to first content and to interactive in Chromium, and the JavaScript it ships, against a
// running `quorum start` (the scale bench's database: a room of ≥ 10k messages, a journal of ≥ 1M events).
// First content: the browser's first-contentful-paint. First rows: the page's list on screen (its test id).
// Interactive: the latest of first rows, the load event and the end of the last long task (≥ 50 ms main-thread
// work, hydration included) seen within a second after the rows appeared.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import { median, progress } from "./lib";

const root = join(import.meta.dirname, "..");
const LOADS = 5;

export interface PageFigure {
  label: string;
  path: string;
  fcp: number;
  rows: number;
  interactive: number;
  scripts: string[];
  jsEncoded: number;
  jsDecoded: number;
  error?: string;
}

export async function timePages(base: string, cookie: { name: string; value: string }, agentId: string): Promise<PageFigure[]> {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const pages: [string, string, string][] = [
    ["Desk (waiting for you)", "/", "waiting-for-you"],
    ["Room general (newest messages)", "/room/general", "message"],
    ["Journal (newest)", "/journal", "journal-row"],
    ["Journal kind=MessageSent", "/journal?kind=MessageSent", "journal-row"],
    ["Journal search q=parser", "/journal?q=parser", "journal-row"],
    ["Board", "/board", "task-card"],
    ["Agents", "/agents", "roster-row"],
    ["Agent detail", `/agents/${agentId}`, "budget"],
    ["Bill", "/bill", "bill-agent-row"],
  ];
  const out: PageFigure[] = [];
  try {
    const context = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: cookie.name, value: cookie.value, url: base }]);
    await context.addInitScript(() => {
      const w = window as unknown as { __longTasks: number[] };
      w.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__longTasks.push(e.startTime + e.duration);
      }).observe({ type: "longtask", buffered: true });
    });
    const page = await context.newPage();
    for (const [label, path, testId] of pages) {
      const runs: { fcp: number; rows: number; interactive: number; scripts: string[]; enc: number; dec: number }[] = [];
      try {
        for (let i = 0; i <= LOADS; i++) {
          await page.goto(path, { waitUntil: "commit" });
          await page.getByTestId(testId).first().waitFor({ timeout: 30_000 });
          const rows = await page.evaluate(() => performance.now());
          await page.waitForTimeout(1000);
          const m = await page.evaluate(() => {
            const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
            const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN;
            const scripts = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter((r) => r.initiatorType === "script" || r.name.endsWith(".js"));
            const tasks = (window as unknown as { __longTasks: number[] }).__longTasks;
            return {
              fcp,
              load: nav?.loadEventEnd ?? 0,
              lastLong: tasks.length ? Math.max(...tasks) : 0,
              scripts: scripts.map((s) => new URL(s.name).pathname),
              enc: scripts.reduce((a, s) => a + s.encodedBodySize, 0),
              dec: scripts.reduce((a, s) => a + s.decodedBodySize, 0),
            };
          });
          // The first load of each page warms the server's route and the browser's cache of shared chunks.
          if (i > 0) runs.push({ fcp: m.fcp, rows, interactive: Math.max(rows, m.load, m.lastLong), scripts: m.scripts, enc: m.enc, dec: m.dec });
        }
        // JS shipped: what a first visit downloads (a fresh context, nothing cached).
        const fresh = await browser.newContext({ baseURL: base });
        await fresh.addCookies([{ name: cookie.name, value: cookie.value, url: base }]);
        const cold = await fresh.newPage();
        await cold.goto(path);
        await cold.getByTestId(testId).first().waitFor({ timeout: 30_000 });
        await cold.waitForTimeout(500);
        const shipped = await cold.evaluate(() =>
          (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
            .filter((r) => r.name.endsWith(".js"))
            .map((r) => ({ path: new URL(r.name).pathname, enc: r.encodedBodySize, dec: r.decodedBodySize })),
        );
        await fresh.close();
        const figure: PageFigure = {
          label,
          path,
          fcp: median(runs.map((r) => r.fcp)),
          rows: median(runs.map((r) => r.rows)),
          interactive: median(runs.map((r) => r.interactive)),
          scripts: shipped.map((s) => s.path),
          jsEncoded: shipped.reduce((a, s) => a + s.enc, 0),
          jsDecoded: shipped.reduce((a, s) => a + s.dec, 0),
        };
        progress(
          `    page ${label}: first content ${figure.fcp.toFixed(0)} ms, rows ${figure.rows.toFixed(0)} ms, interactive ${figure.interactive.toFixed(0)} ms, JS ${(figure.jsEncoded / 1024).toFixed(0)} kB over the wire`,
        );
        out.push(figure);
      } catch (error) {
        progress(`    page ${label}: ${(error as Error).message.split("\n")[0]}`);
        out.push({
          label,
          path,
          fcp: Number.NaN,
          rows: Number.NaN,
          interactive: Number.NaN,
          scripts: [],
          jsEncoded: 0,
          jsDecoded: 0,
          error: (error as Error).message.split("\n")[0],
        });
      }
    }
  } finally {
    await browser.close();
  }
  return out;
}

/** The modules of a built client chunk with their sizes: Turbopack writes `id,(…)=>{…}` pairs; names come from the client manifests. */
export function chunkModules(): Map<string, { bytes: number; gzip: number; modules: { name: string; bytes: number }[] }> {
  const dir = join(root, ".next");
  const names = new Map<number, string>();
  const walk = (d: string) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (f.endsWith("_client-reference-manifest.js")) {
        for (const m of readFileSync(p, "utf8").matchAll(/"\[project\]\/([^"]+?)(?: \[[^"]*\])?(?: \([^"]*\))?":\{"id":(\d+)/g)) names.set(Number(m[2]), m[1]);
      }
    }
  };
  walk(join(dir, "server", "app"));
  const out = new Map<string, { bytes: number; gzip: number; modules: { name: string; bytes: number }[] }>();
  const chunks = join(dir, "static", "chunks");
  for (const f of readdirSync(chunks).filter((x) => x.endsWith(".js"))) {
    const text = readFileSync(join(chunks, f), "utf8");
    const starts = [...text.matchAll(/[,[](\d{2,6}),(?:\([a-z,]*\)|[a-z])=>/g)].map((m) => ({ id: Number(m[1]), at: m.index! }));
    const modules = starts.map((s, i) => ({
      name: names.get(s.id) ?? guess(text.slice(s.at, starts[i + 1]?.at ?? text.length), s.id),
      bytes: (starts[i + 1]?.at ?? text.length) - s.at,
    }));
    out.set(`/_next/static/chunks/${f}`, { bytes: Buffer.byteLength(text), gzip: gzipSync(text).length, modules: modules.sort((a, b) => b.bytes - a.bytes) });
  }
  return out;
}

/** A name for a module the client manifests do not list (a library inside a page's component), from what its code mentions. */
function guess(code: string, id: number): string {
  const marks: [RegExp, string][] = [
    [/__reactFiber|react-dom|ReactDOM/, "react-dom"],
    [/QueryClient|useInfiniteQuery|queryFn/, "@tanstack/react-query"],
    [/ZodError|\$ZodType|_zod/, "zod"],
    [/__NEXT_|next-router|nextRouter/, "next (client runtime)"],
    [/react\.element|useSyncExternalStore/, "react"],
  ];
  for (const [re, name] of marks) if (re.test(code)) return `${name} (module ${id}, guessed)`;
  return `module ${id}`;
}

/** The pages table and, for each page, the largest modules of the JavaScript it shipped. */
export function pagesReport(figures: PageFigure[], setting: string): string {
  const chunks = chunkModules();
  const kb = (n: number) => `${(n / 1024).toFixed(0)} kB`;
  const lines = [
    `# Pages — ${new Date().toISOString()}`,
    "",
    setting,
    "",
    `Medians of ${LOADS} loads after a warm-up load, one Chromium tab (Debian's /usr/bin/chromium, headless). First content: first-contentful-paint;`,
    "rows: the page's list on screen; interactive: the latest of rows, the load event and the end of the last long task within 1 s after.",
    "JS: the scripts a first visit downloads (fresh browser context), over the wire (gzip) and unpacked. Goal: first content ≤ 500 ms.",
    "",
    "| page | first content | rows | interactive | JS over the wire / unpacked (scripts) |",
    "|---|---|---|---|---|",
  ];
  for (const f of figures) {
    if (f.error) lines.push(`| ${f.label} (\`${f.path}\`) | error: ${f.error} | | | |`);
    else
      lines.push(
        `| ${f.label} (\`${f.path.replace(/[0-9a-f-]{36}/, "{id}")}\`) | ${f.fcp.toFixed(0)} ms | ${f.rows.toFixed(0)} ms | ${f.interactive.toFixed(0)} ms | ${kb(f.jsEncoded)} / ${kb(f.jsDecoded)} (${f.scripts.length}) |`,
      );
  }
  lines.push("", "## The largest modules each page ships (minified bytes, from .next/static/chunks; names from the client manifests, else guessed)", "");
  for (const f of figures.filter((x) => !x.error)) {
    const modules = f.scripts.flatMap((s) => chunks.get(s)?.modules ?? []);
    const seen = new Set<string>();
    const top = modules
      .sort((a, b) => b.bytes - a.bytes)
      .filter((m) => !seen.has(m.name) && seen.add(m.name))
      .slice(0, 6);
    lines.push(`- **${f.label}**: ${top.map((m) => `${m.name} ${kb(m.bytes)}`).join(", ")}`);
  }
  return `${lines.join("\n")}\n`;
}

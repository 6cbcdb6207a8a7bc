// Page load times in Chromium against `next start` on a given database: from navigation to the first
// rows on screen, for the Journal explorer (plain, filtered, searched, a run's timeline), Bill and Agents.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { chromium } from "@playwright/test";
import type { Db } from "../db/client";
import { freePort } from "../db/embedded";
import { systemClock } from "../domain/clock";
import { ensureHuman } from "../domain/principals/create-principal";
import { issueSignInLink } from "../domain/principals/sign-in";

const root = join(import.meta.dirname, "..");

async function waitForHealth(base: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("next start did not become healthy in 60 s");
}

export async function timeJournalPages(databaseUrl: string, db: Db): Promise<void> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, NEXT_DIST_DIR: process.env.BENCH_DIST_DIR ?? ".next", QUORUM_SWEEPERS: "0", NEXT_TELEMETRY_DISABLED: "1" },
    stdio: "ignore",
  });
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
  try {
    await waitForHealth(base);
    const human = await ensureHuman(db, "bench-human", systemClock);
    const page = await browser.newPage({ baseURL: base });
    await page.goto(`/signin?token=${await issueSignInLink(db, human, systemClock)}`);
    await page.getByTestId("signed-in-as").waitFor();
    const pages: [string, string, string][] = [
      ["Journal (newest 100)", "/journal", "journal-row"],
      ["Journal kind=BudgetDebited", "/journal?kind=BudgetDebited", "journal-row"],
      ["Journal search q=parser", "/journal?q=parser", "journal-row"],
      ["Journal run timeline (10 turns)", "/journal?run=run_bench_1234&view=timeline", "timeline-turn"],
      ["Bill", "/bill", "bill-agent-row"],
      ["Agents", "/agents", "roster-row"],
    ];
    for (const [label, path, testId] of pages) {
      const ms: number[] = [];
      for (let i = 0; i < 5; i++) {
        const start = performance.now();
        await page.goto(path);
        await page.getByTestId(testId).first().waitFor({ timeout: 60_000 });
        ms.push(performance.now() - start);
      }
      ms.sort((a, b) => a - b);
      console.log(`page load ${label}: median ${ms[2].toFixed(0)} ms (min ${ms[0].toFixed(0)}, max ${ms[4].toFixed(0)}) from navigation to first rows`);
    }
  } finally {
    await browser.close();
    server.kill("SIGTERM");
  }
}

// The bill's in-memory fold against a bare per-agent sum, and bench/bill-fold.ts (the fold from a real journal).
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { bill } from "../domain/bill/bill";
import type { JournalRecord } from "../domain/journal/load";
import { median, progress, QUICK, record, REPS, sleep } from "./lib";

const FOLD_EVENTS = QUICK ? 100_000 : 1_000_000;

function billEvents(n: number): JournalRecord[] {
  const agents = Array.from({ length: 16 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);
  const models = ["model-a", "model-b", "model-c"];
  const t0 = Date.parse("2026-01-01T00:00:00Z");
  const out: JournalRecord[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const agent = i % 16;
    out[i] = {
      id: i + 1,
      t: new Date(t0 + i * 250).toISOString(),
      kind: "BudgetDebited",
      actor: agents[agent],
      runId: `run-${i % 2000}`,
      taskId: `task-${i % 500}`,
      turn: i % 30,
      data: {
        amount: 100 + (i % 900),
        inputTokens: 80 + (i % 700),
        outputTokens: 20 + (i % 200),
        cachedTokens: i % 50,
        estimated: i % 97 === 0,
        model: models[i % 3],
        budgetIds: [`budget-${agent}`],
      },
    };
  }
  return out;
}

export async function benchBillFold() {
  progress(`generating ${FOLD_EVENTS.toLocaleString("en-US")} BudgetDebited events in memory`);
  const events = billEvents(FOLD_EVENTS);
  const folded: number[] = [];
  const bare: number[] = [];
  for (let rep = 1; rep <= REPS; rep++) {
    progress(`bill fold over ${FOLD_EVENTS.toLocaleString("en-US")} events, rep ${rep}/${REPS}`);
    let started = performance.now();
    const b = bill(events);
    folded.push(FOLD_EVENTS / ((performance.now() - started) / 1000));
    if (!b) throw new Error("the bill fold returned nothing");
    // The anchor: the least any fold does — one pass summing amounts per agent into a Map.
    started = performance.now();
    const sums = new Map<string | null, number>();
    for (const e of events) {
      const d = e.data as { amount: number };
      sums.set(e.actor, (sums.get(e.actor) ?? 0) + d.amount);
    }
    bare.push(FOLD_EVENTS / ((performance.now() - started) / 1000));
    if (sums.size !== 16) throw new Error("the bare fold lost agents");
    await sleep(0);
  }
  record({
    section: "bill",
    figure: `bill fold (domain/bill/bill.ts), ${FOLD_EVENTS.toLocaleString("en-US")} events`,
    value: median(folded),
    unit: "events/s",
    anchor: "bare loop summing amount per agent",
    anchorValue: median(bare),
    better: "higher",
    note: "in memory: lines per agent/task/run/model, runs, budgets and per-minute buckets vs one Map",
  });
}

/** bench/bill-fold.ts in a child process: the snapshot fold from a real journal vs a raw SQL aggregate. */
export async function runBillFoldScript(serverUrl: string): Promise<string> {
  const script = fileURLToPath(new URL("./bill-fold.ts", import.meta.url));
  progress(`bench/bill-fold.ts over ${FOLD_EVENTS.toLocaleString("en-US")} journal events in the database (its own scratch database)`);
  return new Promise<string>((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", script, String(FOLD_EVENTS)], {
      env: { ...process.env, DATABASE_URL: serverUrl },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      for (const line of d.toString().split("\n").filter(Boolean)) progress(`  bill-fold: ${line}`);
    });
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.on("close", (code) => resolve(code === 0 ? out : `${out}\n(bench/bill-fold.ts exited ${code})`));
  });
}

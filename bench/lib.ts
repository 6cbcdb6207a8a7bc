// What every bench section shares: progress lines, medians and percentiles, the result rows and their table.
import type { Clock } from "../server/clock";

export const QUICK = process.argv.includes("--quick");
export const REPS = 3;
/** Seconds each timed measurement runs (per repetition). */
export const SECONDS = QUICK ? 1 : 6;
export const BODY_BYTES = 256;

const startedAt = performance.now();
export function progress(text: string) {
  const s = Math.round((performance.now() - startedAt) / 1000);
  process.stderr.write(`[${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}] ${text}\n`);
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
export const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Row {
  section: string;
  figure: string;
  value: number;
  unit: string;
  anchor: string;
  anchorValue: number;
  /** "higher" when more is better (throughput); "lower" for latencies. */
  better: "higher" | "lower";
  note?: string;
}
export const rows: Row[] = [];
export function record(row: Row) {
  rows.push(row);
  progress(`  → ${row.figure}: ${fmt(row.value)} ${row.unit} vs ${row.anchor}: ${fmt(row.anchorValue)} ${row.unit} (${ratioText(row)})`);
}

export function fmt(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Math.abs(n) >= 100) return Math.round(n).toLocaleString("en-US");
  if (Math.abs(n) >= 10) return n.toFixed(1);
  return n.toFixed(2);
}
/** Quorum ÷ anchor for throughput, anchor ÷ Quorum for latency: 1.0 is free, smaller costs more. */
export const efficiency = (r: Row) => (r.better === "higher" ? r.value / r.anchorValue : r.anchorValue / r.value);
export const ratioText = (r: Row) => (r.better === "higher" ? `${(r.value / r.anchorValue).toFixed(3)}×` : `${(r.value / r.anchorValue).toFixed(2)}× the latency`);

export function table(): string {
  const lines = ["| figure | Quorum | anchor (same run) | anchor value | ratio | note |", "|---|---|---|---|---|---|"];
  for (const r of rows) lines.push(`| ${r.figure} | ${fmt(r.value)} ${r.unit} | ${r.anchor} | ${fmt(r.anchorValue)} ${r.unit} | ${ratioText(r)} | ${r.note ?? ""} |`);
  return lines.join("\n");
}

/** Runs `workers` loops until `seconds` have passed; returns operations per second. */
export async function timed(workers: number, seconds: number, op: (worker: number, i: number) => Promise<number>): Promise<number> {
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const counts = await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      let n = 0;
      for (let i = 0; performance.now() < deadline; i++) n += await op(w, i);
      return n;
    }),
  );
  return counts.reduce((a, b) => a + b, 0) / ((performance.now() - started) / 1000);
}

/** Runs `workers` loops side by side until each one's step finds nothing; returns steps per second. */
export async function race(workers: number, step: (worker: number) => Promise<boolean>): Promise<{ count: number; perSecond: number }> {
  const started = performance.now();
  const counts = await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      let n = 0;
      while (await step(w)) n++;
      return n;
    }),
  );
  const count = counts.reduce((a, b) => a + b, 0);
  return { count, perSecond: count / ((performance.now() - started) / 1000) };
}

/** p50 and p99 of `requests` calls spread over `clients` concurrent loops. */
export async function latencies(clients: number, requests: number, run: (client: number) => Promise<void>): Promise<{ p50: number; p99: number }> {
  const taken: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async (_, w) => {
      while (next++ < requests) {
        const t0 = performance.now();
        await run(w);
        taken.push(performance.now() - t0);
      }
    }),
  );
  return { p50: percentile(taken, 50), p99: percentile(taken, 99) };
}

/** A clock that moves `stepMs` on every reading: the rate floor sees ~8 s between an agent's posts. */
export function steppingClock(stepMs: number): Clock {
  let t = Date.now();
  return {
    now: () => {
      t += stepMs;
      return new Date(t);
    },
  };
}

export const body = (tag: string) => `${tag} ${"x".repeat(BODY_BYTES)}`.slice(0, BODY_BYTES);

// What every bench section shares: progress lines, medians and percentiles, the result rows and their table.
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import postgres from "postgres";
import { withDatabase } from "../db/client";
import { runMigrations } from "../db/migrate";
import type { Clock } from "../domain/clock";

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
  return (await timedCosts(workers, seconds, op)).perSecond;
}

/** As `timed`, with the CPU each counted operation cost (ms, this process and Postgres). */
export async function timedCosts(workers: number, seconds: number, op: (worker: number, i: number) => Promise<number>) {
  const cpu = cpuNow();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const counts = await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      let n = 0;
      for (let i = 0; performance.now() < deadline; i++) n += await op(w, i);
      return n;
    }),
  );
  const count = counts.reduce((a, b) => a + b, 0);
  return { perSecond: count / ((performance.now() - started) / 1000), cpu: cpuPerOp(cpu, Math.max(1, count)) };
}

/** Runs `workers` loops side by side until each one's step finds nothing; returns steps per second. */
export async function race(workers: number, step: (worker: number) => Promise<boolean>): Promise<{ count: number; perSecond: number; cpu: { node: number; postgres: number } }> {
  const cpu = cpuNow();
  const started = performance.now();
  const counts = await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      let n = 0;
      while (await step(w)) n++;
      return n;
    }),
  );
  const count = counts.reduce((a, b) => a + b, 0);
  return { count, perSecond: count / ((performance.now() - started) / 1000), cpu: cpuPerOp(cpu, Math.max(1, count)) };
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

let postmaster: number | null = null;

/** Counts the CPU of this Postgres server's processes (the postmaster of one of our backends) in cpuNow. */
export async function watchPostgresServer(sql: { unsafe: (q: string) => Promise<unknown> }): Promise<void> {
  const [row] = (await sql.unsafe("select pg_backend_pid() as pid")) as { pid: number }[];
  try {
    postmaster = Number(statFields(row.pid)[1]); // a backend's parent is the postmaster
  } catch {
    postmaster = null; // a server on another machine: its CPU is not ours to read
  }
}

/** The fields of /proc/PID/stat after the command name: state, ppid, …, utime at [11], stime at [12]. */
function statFields(pid: number | string): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** CPU seconds so far: this process's (the bench's Node side, server functions included), and the bench's
 * Postgres server's (its postmaster and every child, from /proc; 0 when not on this machine). Clock ticks
 * are taken as 1/100 s, Linux's USER_HZ. Other Postgres servers on the machine are not counted. */
export function cpuNow(): { node: number; postgres: number } {
  const own = process.cpuUsage();
  let ticks = 0;
  if (postmaster !== null) {
    for (const pid of readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        const fields = statFields(pid);
        if (Number(pid) !== postmaster && Number(fields[1]) !== postmaster) continue;
        ticks += Number(fields[11]) + Number(fields[12]);
      } catch {
        // the process ended meanwhile
      }
    }
  }
  return { node: (own.user + own.system) / 1e6, postgres: ticks / 100 };
}

/** CPU per operation (ms) across one measurement: `ops` operations between `before` and now. */
export function cpuPerOp(before: { node: number; postgres: number }, ops: number): { node: number; postgres: number } {
  const now = cpuNow();
  return { node: ((now.node - before.node) * 1000) / ops, postgres: ((now.postgres - before.postgres) * 1000) / ops };
}

/** "CPU per op: Node 0.41 ms, Postgres 0.62 ms", medians over repetitions. */
export function cpuText(label: string, costs: { node: number; postgres: number }[]): string {
  if (costs.length === 0) return "";
  return `${label} CPU per op: Node ${median(costs.map((c) => c.node)).toFixed(2)} ms, Postgres ${median(costs.map((c) => c.postgres)).toFixed(2)} ms`;
}

/**
 * Runs `measure` on a migrated scratch database created on DATABASE_URL's server, dropped afterwards whatever
 * happens (the one-off measuring scripts: bench/sweepers.ts, bench/observability.ts).
 */
export async function withScratchDatabase<T>(measure: (url: string) => Promise<T>): Promise<T> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error("set DATABASE_URL to a Postgres server; a scratch database is created on it and dropped after");
  const name = `quorum_measure_${randomBytes(4).toString("hex")}`;
  const admin = postgres(withDatabase(serverUrl, "postgres"), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  try {
    const url = withDatabase(serverUrl, name);
    await runMigrations(url);
    return await measure(url);
  } finally {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

// Posting and claim-next on two databases that differ only in the journal's partitioning — one migrated in
// full (events partitioned by month, migration 0037), one migrated up to the migration before it — measured
// alternately in one process, so the machine's load falls on both alike (issue 32, retention). Each round
// runs `npm run bench`'s own posting and claims sections (bench/posting.ts, bench/claims.ts) on each database,
// in alternating order; the table gives the medians of the rounds, Quorum's throughput and its ratio to the
// raw anchor measured beside it in the same section.
// Without DATABASE_URL it starts an embedded Postgres of its own, whose processes' CPU it counts (a shared
// server's other databases would be counted too): the CPU each post and claim costs Postgres is the figure
// that machine load moves least.
// Usage: [DATABASE_URL=postgres://…] npx tsx bench/partitioned-writes.ts --quick [rounds=4]
import { chmodSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { connect, withDatabase } from "../db/client";
import { startEmbeddedPostgres } from "../db/embedded";
import { installFunctions } from "../db/install-functions";
import { runMigrations } from "../db/migrate";
import { systemClock } from "../domain/clock";
import { createAgent, ensureHuman } from "../domain/principals/create-principal";
import { benchClaims } from "./claims";
import { efficiency, median, progress, rows, watchPostgresServer, type Row } from "./lib";
import { benchPosting } from "./posting";

let serverUrl = process.env.DATABASE_URL;
let stopEmbedded: (() => Promise<void>) | undefined;
let home: string | undefined;
if (!serverUrl) {
  home = mkdtempSync(join(tmpdir(), "quorum-bench-"));
  chmodSync(home, 0o755);
  process.env.QUORUM_HOME = home;
  const embedded = await startEmbeddedPostgres(home);
  serverUrl = embedded.ownerUrl;
  stopEmbedded = embedded.stop;
}
const ROUNDS = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 4);

/** The schema a journal had before it was partitioned: every migration before 0035, and the functions. */
async function migrateUnpartitioned(url: string): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), "quorum-migrations-"));
  cpSync(fileURLToPath(new URL("../db/migrations", import.meta.url)), folder, { recursive: true });
  const journal = JSON.parse(readFileSync(join(folder, "meta/_journal.json"), "utf8")) as { entries: { tag: string }[] };
  journal.entries = journal.entries.slice(
    0,
    journal.entries.findIndex((e) => e.tag.endsWith("journal-partitioned-by-month")),
  );
  writeFileSync(join(folder, "meta/_journal.json"), JSON.stringify(journal));
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await migrate(drizzle(sql), { migrationsFolder: folder });
    await installFunctions(sql);
  } finally {
    await sql.end();
    rmSync(folder, { recursive: true, force: true });
  }
}

interface Subject {
  label: string;
  setUp: (url: string) => Promise<void>;
  rows: Row[];
}

/** One measurement of a subject: a fresh database set up its way, the posting and claims sections, dropped after. */
async function measure(s: Subject, round: number): Promise<string> {
  const name = `quorum_bench_${s.label}_${process.pid}_${round}`;
  const admin = postgres(withDatabase(serverUrl!, "postgres"), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = withDatabase(serverUrl!, name);
  try {
    await s.setUp(url);
    const c = connect(url, { max: 20 });
    await watchPostgresServer(c.sql);
    try {
      const human = await ensureHuman(c.db, "bench-human", systemClock);
      const agents = await Promise.all(Array.from({ length: 16 }, (_, i) => createAgent(c.db, null, { name: `bench-agent-${i}`, role: "coder" }, systemClock)));
      const before = rows.length;
      await benchPosting(c, human, agents.slice(0, 8));
      await benchClaims(c, human, agents);
      s.rows.push(...rows.slice(before));
      const [{ server_version }] = await c.sql`show server_version`;
      return server_version as string;
    } finally {
      await c.close();
    }
  } finally {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

const subjects: Subject[] = [
  { label: "partitioned", setUp: runMigrations, rows: [] },
  { label: "unpartitioned", setUp: migrateUnpartitioned, rows: [] },
];
let version = "";
try {
  for (let round = 1; round <= ROUNDS; round++) {
    for (const s of round % 2 ? subjects : [...subjects].reverse()) {
      progress(`round ${round}/${ROUNDS}: ${s.label}`);
      version = await measure(s, round);
    }
  }
} finally {
  await stopEmbedded?.();
  if (home) rmSync(home, { recursive: true, force: true });
}
/** Postgres's and Node's CPU per post or claim, from the note each row carries (bench/lib.ts cpuText). */
const cpuOf = (r: Row) => /(?:posts|claims) CPU per op: Node ([\d.]+) ms, Postgres ([\d.]+) ms/.exec(r.note ?? "");
const figures = [...new Map(subjects[0].rows.map((r) => [`${r.figure} | ${r.anchor}`, r])).values()];
const lines = [
  `PostgreSQL ${version}${stopEmbedded ? " (embedded, this script's own)" : ""}; ${ROUNDS} rounds, each database fresh and measured once a round in alternating order; medians of the rounds (each itself a median of 3 repetitions).`,
  "",
  "| figure | anchor | partitioned | ÷ anchor | unpartitioned | ÷ anchor | partitioned ÷ unpartitioned (throughput · ratios to their anchors) | CPU per op, partitioned (Postgres · Node) | unpartitioned |",
  "|---|---|---|---|---|---|---|---|---|",
];
for (const f of figures) {
  const of = (s: Subject) => s.rows.filter((r) => r.figure === f.figure && r.anchor === f.anchor);
  const [p, u] = subjects.map((s) => {
    const cpu = of(s)
      .map(cpuOf)
      .filter((m): m is RegExpExecArray => m !== null);
    return {
      value: median(of(s).map((r) => r.value)),
      ratio: median(of(s).map(efficiency)),
      cpu: cpu.length ? `${median(cpu.map((m) => Number(m[2]))).toFixed(2)} · ${median(cpu.map((m) => Number(m[1]))).toFixed(2)} ms` : "—",
    };
  });
  lines.push(
    `| ${f.figure} | ${f.anchor} | ${p.value.toFixed(0)} ${f.unit} | ${p.ratio.toFixed(3)}× | ${u.value.toFixed(0)} ${f.unit} | ${u.ratio.toFixed(3)}× | ${(p.value / u.value).toFixed(3)} · ${(p.ratio / u.ratio).toFixed(3)} | ${p.cpu} | ${u.cpu} |`,
  );
}
console.log(lines.join("\n"));

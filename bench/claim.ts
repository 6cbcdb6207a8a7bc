// Claim throughput: claimNextTask at 16 workers vs a bare UPDATE … SKIP LOCKED loop, same database, same run.
// Usage: npx tsx bench/claim.ts [tasks=2000] [workers=16] [rounds=3]   (DATABASE_URL's server, else embedded)
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { connect, type Connection } from "../db/client";
import { startEmbeddedPostgres } from "../db/embedded";
import { runMigrations } from "../db/migrate";
import { tasks } from "../db/schema";
import { systemClock } from "../server/clock";
import { createAgent, ensureHuman } from "../server/principals/create-principal";
import { claimNextTask } from "../server/tasks/claim-next";

const [TASKS, WORKERS, ROUNDS] = [2_000, 16, 3].map((fallback, i) => Number(process.argv[2 + i] ?? fallback));

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** Runs `workers` loops side by side until each one's claim finds nothing; returns claims per second. */
async function race(workers: number, claim: (worker: number) => Promise<boolean>): Promise<{ claims: number; perSecond: number }> {
  const started = performance.now();
  const counts = await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      let n = 0;
      while (await claim(w)) n++;
      return n;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const claims = counts.reduce((a, b) => a + b, 0);
  return { claims, perSecond: claims / seconds };
}

async function fillBoard(connection: Connection, round: number) {
  const { db, sql } = connection;
  const lead = await ensureHuman(db, `bench-lead`);
  for (let i = 0; i < TASKS; i += 500) {
    const rows = Array.from({ length: Math.min(500, TASKS - i) }, (_, j) => ({
      title: `bench ${round}.${i + j}`,
      acceptanceCriteria: "claimed once",
      approverId: lead.id,
      createdBy: lead.id,
    }));
    await db.insert(tasks).values(rows);
  }
  // The bare baseline: an equally sized table with the same kind of partial index on the claim path.
  await sql`drop table if exists bench_jobs`;
  await sql`create table bench_jobs (id bigserial primary key, status text not null default 'ready', owner int, claimed_at timestamptz)`;
  await sql`create index bench_jobs_ready_idx on bench_jobs (id) where status = 'ready'`;
  await sql`insert into bench_jobs (status) select 'ready' from generate_series(1, ${TASKS})`;
  await sql`analyze tasks`;
  await sql`analyze bench_jobs`;
}

async function main() {
  let home: string | undefined;
  let stop: (() => Promise<void>) | undefined;
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    home = mkdtempSync(join(tmpdir(), "quorum-bench-"));
    chmodSync(home, 0o755);
    const embedded = await startEmbeddedPostgres(home);
    serverUrl = embedded.url;
    stop = embedded.stop;
  }
  const name = `quorum_bench_${process.pid}`;
  const admin = postgres(withDatabase(serverUrl, "postgres"), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = withDatabase(serverUrl, name);
  const connection = connect(url, { max: WORKERS });
  try {
    await runMigrations(url);
    const agents = await Promise.all(Array.from({ length: WORKERS }, (_, i) => createAgent(connection.db, null, { name: `bench-agent-${i}`, role: "coder" })));
    console.log(`claim throughput, ${WORKERS} workers, ${TASKS} tasks per round, ${ROUNDS} rounds`);
    const ratios: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      await fillBoard(connection, round);
      // Alternate the order so neither side always runs on a warmer cache.
      const runBoard = () => race(WORKERS, async (w) => (await claimNextTask(connection.db, agents[w], systemClock)) !== null);
      const runBare = () =>
        race(WORKERS, async (w) => {
          const rows = await connection.sql`
            update bench_jobs set status = 'taken', owner = ${w}, claimed_at = now()
            where id = (select id from bench_jobs where status = 'ready' order by id for update skip locked limit 1)
            returning id`;
          return rows.length > 0;
        });
      let board, bare;
      if (round % 2) {
        board = await runBoard();
        bare = await runBare();
      } else {
        bare = await runBare();
        board = await runBoard();
      }
      if (board.claims !== TASKS || bare.claims !== TASKS) throw new Error(`lost claims: board ${board.claims}, bare ${bare.claims} of ${TASKS}`);
      const ratio = board.perSecond / bare.perSecond;
      ratios.push(ratio);
      console.log(
        `round ${round}: claim-next ${board.perSecond.toFixed(0)}/s · bare SKIP LOCKED ${bare.perSecond.toFixed(0)}/s · ratio ${ratio.toFixed(3)}`,
      );
    }
    const median = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)];
    console.log(`median ratio claim-next ÷ bare: ${median.toFixed(3)} (1.0 would be free; claim-next also journals, opens a focus window and reads the view)`);
    // Attribution, on this throwaway database only: the journal's NOTIFY serialises commits cluster-wide.
    await fillBoard(connection, ROUNDS + 1);
    await connection.sql`alter table events disable trigger events_notify`;
    const quiet = await race(WORKERS, async (w) => (await claimNextTask(connection.db, agents[w], systemClock)) !== null);
    console.log(`diagnostic: claim-next with the journal's NOTIFY trigger disabled ${quiet.perSecond.toFixed(0)}/s`);
  } finally {
    await connection.close();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
    await stop?.();
    if (home) rmSync(home, { recursive: true, force: true });
  }
}

await main();

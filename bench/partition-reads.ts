// What partitioning the journal by month costs a statement, measured against the same rows in one plain
// table with the same indexes and triggers, on the same database in the same run (issue 32, retention).
// Usage: DATABASE_URL=postgres://… npx tsx bench/partition-reads.ts [months=3,24] [eventsPerMonth=5000]
// Prints, per number of monthly partitions, the median time of each statement on both tables and the ratio.
import postgres from "postgres";
import { withDatabase } from "../db/client";
import { runMigrations } from "../db/migrate";
import { addMonths, monthOf } from "../domain/journal/partitions";

const serverUrl = process.env.DATABASE_URL;
if (!serverUrl) throw new Error("set DATABASE_URL to a Postgres server this script may create a scratch database on");
const monthCounts = (process.argv[2] ?? "3,24").split(",").map(Number);
const perMonth = Number(process.argv[3] ?? 5000);
const ROUNDS = 7;
const CALLS = 200;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(months: number) {
  const name = `quorum_bench_partitions_${process.pid}_${months}`;
  const admin = postgres(withDatabase(serverUrl!, "postgres"), { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${name}`);
  await admin.unsafe(`create database ${name}`);
  const url = withDatabase(serverUrl!, name);
  await runMigrations(url);
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    // `months` of history ending with the current month, each with its partition, as a journal kept that long has.
    const first = addMonths(monthOf(new Date()), -(months - 1));
    for (let m = 0; m < months; m++) await sql`select quorum_journal_partition(${addMonths(first, m)}::date)`;
    for (let m = 0; m < months; m++) {
      await sql`insert into events (kind, t, actor, task_id, run_id, data)
        select (array['MessageSent','TaskClaimed','ModelCalled','BudgetDebited'])[1 + g % 4], ${addMonths(first, m)}::timestamptz + g * interval '1 second',
               gen_random_uuid(), case when g % 10 = 0 then gen_random_uuid() end, case when g % 7 = 0 then 'run_' || (g % 50) end,
               jsonb_build_object('body', 'event ' || g, 'amount', g % 100, 'budgetIds', jsonb_build_array(gen_random_uuid()))
        from generate_series(1, ${perMonth}) g`;
    }
    // The same rows in one plain table, with the journal's indexes and triggers.
    await sql.unsafe(`create table events_flat (like events including defaults including constraints)`);
    await sql.unsafe(`insert into events_flat select * from events`);
    await sql.unsafe(`alter table events_flat add primary key (id, t)`);
    for (const { def } of await sql<{ def: string }[]>`select pg_get_indexdef(indexrelid) as def from pg_index where indrelid = 'events'::regclass and not indisprimary`) {
      await sql.unsafe(
        def
          .replace(/INDEX (\w+) ON ONLY public\.events /, "INDEX $1_flat ON public.events_flat ")
          .replace(/INDEX (\w+) ON public\.events /, "INDEX $1_flat ON public.events_flat "),
      );
    }
    for (const { def } of await sql<{ def: string }[]>`select pg_get_triggerdef(oid) as def from pg_trigger where tgrelid = 'events'::regclass and not tgisinternal`) {
      await sql.unsafe(def.replace(/TRIGGER (\w+) /, "TRIGGER $1_flat ").replace(" ON public.events ", " ON public.events_flat "));
    }
    await sql.unsafe("vacuum analyze events");
    await sql.unsafe("vacuum analyze events_flat");
    const [mid] = await sql`select id, tx_id::text as tx from events order by id offset ${Math.floor((months * perMonth) / 2)} limit 1`;
    const [near] = await sql`select id, tx_id::text as tx from events order by tx_id desc, id desc offset 20 limit 1`;
    const [task] = await sql`select task_id from events where task_id is not null order by id desc limit 1`;
    const statements: { label: string; run: (table: string) => Promise<unknown> }[] = [
      { label: "newest page (50 by id desc)", run: (t) => sql.unsafe(`select * from ${t} order by id desc limit 50`, [], { prepare: true }) },
      {
        label: "settled tail after a cursor (tx_id, id)",
        run: (t) => sql.unsafe(`select id from ${t} where (tx_id, id) > ($1::xid8, $2::bigint) order by tx_id, id limit 100`, [near.tx, near.id], { prepare: true }),
      },
      { label: "one event by id (a cursor's place)", run: (t) => sql.unsafe(`select tx_id from ${t} where id = $1`, [mid.id], { prepare: true }) },
      { label: "a task's events", run: (t) => sql.unsafe(`select * from ${t} where task_id = $1 order by id`, [task.task_id], { prepare: true }) },
      {
        label: "append one event (autocommit)",
        run: (t) => sql.unsafe(`insert into ${t} (kind, t, data) values ('MessageSent', now(), '{"body": "hello"}')`, [], { prepare: true }),
      },
    ];
    const [{ n: partitions }] = await sql<{ n: number }[]>`select count(*)::int as n from pg_inherits where inhparent = 'events'::regclass`;
    const rows: string[] = [];
    for (const s of statements) {
      const times: Record<string, number[]> = { events: [], events_flat: [] };
      for (let round = 0; round < ROUNDS; round++) {
        for (const table of round % 2 ? ["events_flat", "events"] : ["events", "events_flat"]) {
          const start = performance.now();
          for (let i = 0; i < CALLS; i++) await s.run(table);
          times[table].push(((performance.now() - start) * 1000) / CALLS);
        }
      }
      const [p, f] = [median(times.events), median(times.events_flat)];
      rows.push(`| ${partitions} (${months} months of events) | ${s.label} | ${p.toFixed(0)} µs | ${f.toFixed(0)} µs | ${(p / f).toFixed(2)}× |`);
    }
    return rows;
  } finally {
    await sql.end();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

const version = postgres(serverUrl, { max: 1 });
const [{ server_version }] = await version`show server_version`;
await version.end();
console.log(`PostgreSQL ${server_version}; ${perMonth} events a month; medians of ${ROUNDS} alternating rounds of ${CALLS} calls, one connection, prepared statements\n`);
console.log("| partitions | statement | partitioned | one plain table | ratio |\n|---|---|---|---|---|");
for (const months of monthCounts) for (const row of await measure(months)) console.log(row);

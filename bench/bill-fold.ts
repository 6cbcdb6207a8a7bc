// The bill's fold and the journal explorer's reads on a journal of N events (default 1,000,000), made
// with INSERT … SELECT generate_series in a scratch database: runs of 10 turns, 52 events per run.
// Usage: npx tsx bench/bill-fold.ts [events=1000000] [--browser] [--keep]
//   (DATABASE_URL's server, else embedded; --browser also times the Journal, Bill and Agents pages in
//    Chromium against `next start` from BENCH_DIST_DIR, default .next — build it first.)
import { createHash } from "node:crypto";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { connect, type Connection, withDatabase } from "../db/client";
import { startEmbeddedPostgres } from "../db/embedded";
import { runMigrations } from "../db/migrate";
import { readBill } from "../domain/bill/read-bill";
import { refreshBillSnapshot, resetBillSnapshot, billEventsAfter } from "../domain/bill/snapshot";
import { foldBill } from "../domain/bill/bill-fold";
import { indexJournalSearch } from "../domain/journal/search-index";
import { listJournal, type JournalQuery } from "../domain/journal/list";
import { createAgent } from "../domain/principals/create-principal";
import { timeJournalPages } from "./journal-pages";
import { systemClock } from "../domain/clock";

const args = process.argv.slice(2);
const N = Number(args.find((a) => /^\d+$/.test(a)) ?? 1_000_000);
const AGENTS = 20;
const TASKS = 5_000;
const PER_RUN = 52;
const CONFIG = { currency: "USD", problem: null, prices: { "gpt-4o": { input: 2.5, output: 10, cachedInput: 1.25 }, "*": { input: 1, output: 2 } } };

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await run();
  return { ms: performance.now() - start, value };
}

async function median(times: number, run: () => Promise<unknown>): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < times; i++) ms.push((await timed(run)).ms);
  return ms.sort((a, b) => a - b)[Math.floor(ms.length / 2)];
}

const rate = (n: number, ms: number) => `${Math.round(n / (ms / 1000)).toLocaleString("en")}/s`;

/** Runs of ten turns: RunStarted, 10 × (ModelCalled, ModelResponded, BudgetDebited, ToolDispatched, ToolReturned), AgentFinished. */
async function generate(c: Connection, agents: string[], from: number, count: number): Promise<void> {
  await c.sql`
    insert into events (kind, actor, run_id, task_id, turn, t, data)
    select
      case when p = 0 then 'RunStarted' when p = ${PER_RUN - 1}::int then 'AgentFinished'
           else (array['ModelCalled','ModelResponded','BudgetDebited','ToolDispatched','ToolReturned'])[((p - 1) % 5) + 1] end,
      (${agents}::uuid[])[(r % ${AGENTS}::int) + 1],
      'run_bench_' || r,
      md5('task' || (r % ${TASKS}::int))::uuid,
      case when p = 0 then 0 when p = ${PER_RUN - 1}::int then 10 else ((p - 1) / 5) + 1 end,
      now() - interval '7 days' + g * (interval '7 days' / ${Math.max(N, from + count)}::int),
      case
        when p = 0 then jsonb_build_object('task', 'Make the failing parser test pass', 'system', 'You are the coder.', 'principles', '[]'::jsonb,
          'tools', '[]'::jsonb, 'budgetId', md5('sub' || (r % ${AGENTS}::int))::uuid, 'budgetIds', jsonb_build_array(md5('sub' || (r % ${AGENTS}::int))::uuid, md5('root' || (r % ${AGENTS}::int))::uuid),
          'maxTurns', 12, 'retryAttempts', 1, 'contextLimit', 100000, 'model', m, 'requestId', null)
        when p = ${PER_RUN - 1}::int then jsonb_build_object('result', jsonb_build_object('status', 'done', 'summary', 'parse('''') returns []', 'evidence', jsonb_build_array('2 passed'), 'turns', 10, 'spent', 0))
        when (p - 1) % 5 = 0 then jsonb_build_object('turn', ((p - 1) / 5) + 1, 'mail', '[]'::jsonb, 'context', jsonb_build_object('messages', 4, 'estimatedTokens', 300, 'droppedSteps', 0))
        when (p - 1) % 5 = 1 then jsonb_build_object('text', 'Reading the parser before editing it, turn ' || (((p - 1) / 5) + 1) || ' of run ' || r,
          'toolCalls', jsonb_build_array(jsonb_build_object('id', 'c1', 'name', 'read_file', 'arguments', jsonb_build_object('path', 'src/parse.js'))),
          'usage', jsonb_build_object('inputTokens', inp, 'outputTokens', outp, 'cachedTokens', cached, 'estimated', false), 'model', m)
        when (p - 1) % 5 = 2 then jsonb_build_object('amount', inp + outp, 'inputTokens', inp, 'outputTokens', outp, 'cachedTokens', cached, 'estimated', false, 'model', m,
          'budgetIds', jsonb_build_array(md5('sub' || (r % ${AGENTS}::int))::uuid, md5('root' || (r % ${AGENTS}::int))::uuid))
        when (p - 1) % 5 = 3 then jsonb_build_object('index', 0, 'callId', 'c1', 'tool', 'read_file', 'args', jsonb_build_object('path', 'src/parse.js'), 'attempt', 1, 'writes', null)
        else jsonb_build_object('index', 0, 'callId', 'c1', 'tool', 'read_file', 'attempt', 1,
          'observation', jsonb_build_object('is_error', false, 'result', jsonb_build_object('content', 'export function parse(input) { return input.split(","); } // revision ' || g)))
      end
    from (
      select g, g / ${PER_RUN}::int as r, g % ${PER_RUN}::int as p,
        (array['gpt-4o', 'claude-sonnet', 'llama-3'])[((g / ${PER_RUN}::int) % 3) + 1] as m,
        (100 + (g::bigint * 7919) % 900)::int as inp, (10 + (g::bigint * 104729) % 190)::int as outp,
        case when g % 3 = 0 then 50 else 0 end as cached
      from generate_series(${from}::int, ${from + count - 1}::int) g
    ) s`;
}

async function main() {
  let home: string | undefined;
  let stop: (() => Promise<void>) | undefined;
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    home = mkdtempSync(join(tmpdir(), "quorum-bench-"));
    chmodSync(home, 0o755);
    const embedded = await startEmbeddedPostgres(home);
    serverUrl = embedded.ownerUrl; // the superuser: it creates the scratch databases
    stop = embedded.stop;
  }
  const name = `quorum_bench_bill_${process.pid}`;
  const admin = postgres(withDatabase(serverUrl, "postgres"), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = withDatabase(serverUrl, name);
  const c = connect(url, { max: 4 });
  try {
    await runMigrations(url);
    const agents: string[] = [];
    for (let i = 0; i < AGENTS; i++) agents.push((await createAgent(c.db, null, { name: `bench-agent-${i}`, role: "coder" }, systemClock)).id);
    const budgets = agents.flatMap((id, i) => [
      { kind: "BudgetCreated", actor: null, data: { budgetId: hash("root", i), ownerId: id, parentId: null, label: `agent ${i}`, allowance: 50_000_000 } },
      { kind: "BudgetCreated", actor: null, data: { budgetId: hash("sub", i), ownerId: id, parentId: hash("root", i), label: `agent ${i} sub`, allowance: 40_000_000 } },
    ]);
    for (const b of budgets) await c.sql`insert into events (kind, data) values (${b.kind}, ${JSON.stringify(b.data)}::jsonb)`;
    const load = await timed(async () => {
      for (let at = 0; at < N; at += 100_000) await generate(c, agents, at, Math.min(100_000, N - at));
    });
    // The search index is written after the fact (migration 0027): here in one go after the load.
    const searchIndex = await timed(() => indexJournalSearch(c.db, Number.POSITIVE_INFINITY));
    await c.sql`vacuum analyze events, event_search`;
    const [{ total, billEvents }] = await c.sql<{ total: number; billEvents: number }[]>`
      select count(*)::int as total, count(*) filter (where kind in ('BudgetDebited','BudgetCreated','RunStarted','AgentFinished'))::int as "billEvents" from events`;
    console.log(
      `journal: ${total.toLocaleString("en")} events (${billEvents.toLocaleString("en")} of the bill's kinds), loaded in ${(load.ms / 1000).toFixed(1)} s; search index built in ${(searchIndex.ms / 1000).toFixed(1)} s`,
    );

    // The fold, from scratch: every settled bill event into the snapshot's rows.
    await resetBillSnapshot(c.db);
    const cold = await timed(() => refreshBillSnapshot(c.db, 20_000));
    console.log(
      `cold snapshot fold: ${cold.value.toLocaleString("en")} bill events in ${(cold.ms / 1000).toFixed(2)} s = ${rate(cold.value, cold.ms)} bill events, ${rate(total, cold.ms)} journal events`,
    );
    const rows = await billEventsAfter(c.db, { throughTx: 0, throughId: 0, folded: 0 }, { settled: true });
    const memory = await timed(async () => foldBill(rows));
    console.log(`in-memory fold (no I/O): ${rows.length.toLocaleString("en")} events in ${memory.ms.toFixed(0)} ms = ${rate(rows.length, memory.ms)}`);
    const raw = await timed(() => c.sql`select actor, data->>'model', sum((data->>'amount')::bigint), count(*) from events where kind = 'BudgetDebited' group by 1, 2`);
    console.log(`raw SQL aggregate of the debits (the database's own floor): ${(raw.ms / 1000).toFixed(2)} s — snapshot fold ÷ raw = ${(cold.ms / raw.ms).toFixed(1)}×`);

    const bill = await readBill(c.db, CONFIG);
    const [{ sum }] = await c.sql<{ sum: string }[]>`select sum((data->>'amount')::bigint) as sum from events where kind = 'BudgetDebited'`;
    if (bill.total.tokens !== Number(sum)) throw new Error(`the bill (${bill.total.tokens}) differs from the debits' sum (${sum})`);
    console.log(`check: the bill's total equals an independent SQL sum of the debits (${Number(sum).toLocaleString("en")} tokens)`);

    await generate(c, agents, N, 1_040);
    const warm = await timed(() => refreshBillSnapshot(c.db));
    console.log(`incremental refresh after 1,040 new events (${warm.value} bill events): ${warm.ms.toFixed(0)} ms`);
    console.log(`GET /api/bill (refresh + read, warm): median ${(await median(7, () => readBill(c.db, CONFIG))).toFixed(0)} ms`);

    const [{ mid }] = await c.sql<{ mid: number }[]>`select (max(id) / 2)::int as mid from events`;
    const reads: [string, JournalQuery][] = [
      ["newest 100", {}],
      ["kind=BudgetDebited", { kind: "BudgetDebited" }],
      ["actor=…", { actor: agents[3] }],
      ["task=…", { task: (await c.sql<{ id: string }[]>`select md5('task7')::uuid::text as id`)[0].id }],
      ["run=…", { run: "run_bench_1234" }],
      ["page at the middle (before=)", { before: mid }],
      ["search q=revision 777777 (rare)", { q: "revision 777777" }],
      ["search q=parser (common)", { q: "parser" }],
      ["ascending settled after= middle", { after: mid }],
    ];
    for (const [label, query] of reads) {
      const ms = await median(5, () => listJournal(c.db, { ...query, limit: 100 }));
      console.log(`GET /api/journal ${label}: median ${ms.toFixed(1)} ms`);
    }
    // What search costs now: the writers append without it, the search sweeper indexes their events afterwards.
    const append = await timed(() => generate(c, agents, N + 2_000, 50_000));
    const indexing = await timed(() => indexJournalSearch(c.db, Number.POSITIVE_INFINITY));
    console.log(
      `appending 50,000 events: ${(append.ms / 1000).toFixed(2)} s; indexing them for search afterwards (the search sweeper's work): ${(indexing.ms / 1000).toFixed(2)} s`,
    );
    if (args.includes("--browser")) await timeJournalPages(url, c.db);
  } finally {
    await c.close();
    if (!args.includes("--keep")) await admin.unsafe(`drop database if exists ${name} with (force)`);
    else console.log(`kept database ${name}`);
    await admin.end();
    await stop?.();
    if (home) rmSync(home, { recursive: true, force: true });
  }
}

function hash(prefix: string, i: number): string {
  // The same ids the SQL makes with md5(prefix || i)::uuid.
  const hex = createHash("md5").update(`${prefix}${i}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

await main();

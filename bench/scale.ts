// `npm run bench -- --scale [--sizes=10000,1000000,10000000] [--out=file.md]`: the journal filled in SQL (bench/scale-fill.ts)
// to each size in turn on one scratch database, and at each size every read path and the hot paths measured
// over HTTP against a real `quorum start` (restarted per size so no size inherits another's warm caches).
// Writes bench/results/<date>-scale.md after every size (a later failure keeps what was measured).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { connect, withDatabase } from "../db/client";
import { runMigrations } from "../db/migrate";
import { systemClock } from "../domain/clock";
import { createBudget } from "../domain/budgets/create";
import { indexJournalSearch } from "../domain/journal/search-index";
import { createAgent, ensureHuman } from "../domain/principals/create-principal";
import { issueSignInLink, redeemSignInLink, SESSION_COOKIE } from "../domain/principals/sign-in";
import { createRoom } from "../domain/rooms/rooms";
import { progress } from "./lib";
import { startLiveServer, stopLiveServer } from "./live";
import { fill, fillRooms, preparePartitions, type FillContext } from "./scale-fill";
import { pagesReport, timePages } from "./scale-pages";
import { measureReads, type Measured, type Target } from "./scale-reads";

const AGENTS = 32;
const sizesArg = process.argv.find((a) => a.startsWith("--sizes="));
const SIZES = sizesArg ? sizesArg.slice(8).split(",").map(Number) : [10_000, 1_000_000, 10_000_000];

/** --keep: the database is left (its name and credentials in /tmp/quorum-scale-<pid>.json) for --reuse=FILE, which
 * measures it again, after any new migrations, without filling (a fix's before and after on the same rows). */
const KEEP = process.argv.includes("--keep");
const REUSE = process.argv.find((a) => a.startsWith("--reuse="))?.slice(8);
/** --pages: at the last size, also time the pages in Chromium (bench/scale-pages.ts); --pages-only skips the HTTP reads. */
const PAGES = process.argv.includes("--pages") || process.argv.includes("--pages-only");
const PAGES_ONLY = process.argv.includes("--pages-only");

const label = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1000 ? `${n / 1000}k` : String(n));

export async function runScale(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error("the scale bench needs DATABASE_URL (a Postgres server it may create a scratch database on)");
  const kept = REUSE ? (JSON.parse(readFileSync(REUSE, "utf8")) as Kept) : undefined;
  const name = kept?.name ?? `quorum_scale_${process.pid}`;
  const admin = postgres(withDatabase(serverUrl, "postgres"), { max: 1, onnotice: () => {} });
  if (!kept) await admin.unsafe(`create database ${name}`);
  const url = withDatabase(serverUrl, name);
  process.env.DATABASE_URL = url;
  const c = connect(url, { max: 4 });
  const results: { size: number; events: number; notes: string[]; rows: Measured[] }[] = [];
  try {
    progress(`migrating ${name}`);
    await runMigrations(url);
    const version = (await c.sql`show server_version`)[0].server_version as string;
    if (kept) {
      const [{ events }] = await c.sql<{ events: number }[]>`select count(*)::int as events from events`;
      await indexJournalSearch(c.db, Number.POSITIVE_INFINITY);
      await c.sql.unsafe("vacuum analyze");
      const target = await targetOf(c, { id: kept.human }, kept.sessionToken, kept.agents);
      const live = await startLiveServer(url);
      try {
        results.push({ size: kept.size, events, notes: ["measured again on the kept database"], rows: await measureReads(live.baseURL, c, target) });
      } finally {
        await stopLiveServer(live);
      }
      write(version, results);
      return;
    }
    const human = await ensureHuman(c.db, "scale-human", systemClock);
    const { sessionToken } = await redeemSignInLink(c.db, await issueSignInLink(c.db, human, systemClock), systemClock);
    const agents = [];
    for (let i = 0; i < AGENTS; i++) agents.push(await createAgent(c.db, null, { name: `scale-agent-${i}`, role: "coder" }, systemClock));
    const root: string[] = [];
    const sub: string[] = [];
    for (const a of agents) {
      const r = await createBudget(c.db, null, { ownerId: a.id, allowance: 5_000_000_000, label: `${a.name}` }, systemClock);
      const s = await createBudget(c.db, null, { ownerId: a.id, allowance: 4_000_000_000, parentId: r.id, label: `${a.name} runs` }, systemClock);
      root.push(r.id);
      sub.push(s.id);
    }
    for (const room of fillRooms.slice(1)) await createRoom(c.db, human, { name: room }, systemClock);
    const startMs = Date.now() - 361 * 86_400_000;
    await preparePartitions(c, startMs);
    const ctx: FillContext = { agents: agents.map((a) => a.id), human: human.id, budgets: { root, sub }, startMs };
    let done = 0;
    for (const size of SIZES) {
      const notes: string[] = [];
      const began = performance.now();
      await fill(c, ctx, done, size, (n) => progress(`  filled ${n.toLocaleString("en")} of ${size.toLocaleString("en")} planned events`));
      done = size;
      notes.push(`fill ${((performance.now() - began) / 1000).toFixed(0)} s`);
      let t0 = performance.now();
      const indexed = await indexJournalSearch(c.db, Number.POSITIVE_INFINITY);
      notes.push(`search index ${indexed.toLocaleString("en")} events in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      t0 = performance.now();
      await c.sql.unsafe("vacuum analyze");
      notes.push(`vacuum analyze ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      const [{ events, bytes }] = await c.sql<
        { events: number; bytes: string }[]
      >`select count(*)::int as events, pg_size_pretty(pg_database_size(current_database())) as bytes from events`;
      notes.push(`database ${bytes}`);
      progress(`journal at ${events.toLocaleString("en")} events (${notes.join(", ")}); starting quorum`);
      const target = await targetOf(c, human, sessionToken, agents);
      const live = await startLiveServer(url);
      try {
        if (!PAGES_ONLY) results.push({ size, events, notes, rows: await measureReads(live.baseURL, c, target) });
        if (PAGES && size === SIZES[SIZES.length - 1]) {
          const [{ n }] = await c.sql<{ n: number }[]>`select count(*)::int as n from messages where room = 'general'`;
          const figures = await timePages(live.baseURL, { name: SESSION_COOKIE, value: sessionToken }, agents[1].id);
          const setting = `A journal of ${events.toLocaleString("en")} events, room general holding ${n.toLocaleString("en")} messages (bench/scale-fill.ts), through \`quorum start\` (\`npm run bench -- --scale --sizes=${SIZES.join(",")} --pages${PAGES_ONLY ? "-only" : ""}\`), Node ${process.version}.`;
          const file = fileURLToPath(new URL(`./results/${new Date().toISOString().slice(0, 10)}-pages.md`, import.meta.url));
          writeFileSync(file, pagesReport(figures, setting));
          progress(`wrote ${file}`);
        }
      } finally {
        await stopLiveServer(live);
      }
      if (!PAGES_ONLY) write(version, results);
      if (KEEP) {
        const file = `/tmp/quorum-scale-${process.pid}.json`;
        const keep: Kept = { name, size, human: human.id, sessionToken, agents: agents.map((a) => ({ id: a.id, key: a.key })) };
        writeFileSync(file, JSON.stringify(keep));
        progress(`kept ${name} at ${size.toLocaleString("en")}: ${file}`);
      }
    }
  } finally {
    await c.close();
    const { getConnection } = await import("../db/client");
    await getConnection()
      .close()
      .catch(() => {});
    if (!KEEP) {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      progress(`dropped ${name}`);
    }
    await admin.end();
  }
}

interface Kept {
  name: string;
  size: number;
  human: string;
  sessionToken: string;
  agents: { id: string; key: string }[];
}

async function targetOf(c: ReturnType<typeof connect>, human: { id: string }, sessionToken: string, agents: { id: string; key: string }[]): Promise<Target> {
  const [{ count }] = await c.sql<{ count: number }[]>`select count(*)::int as count from tasks where status = 'done'`;
  const [task] = await c.sql<{ id: string }[]>`select id from tasks where status = 'done' order by number offset ${Math.floor(count / 2)} limit 1`;
  const [run] = await c.sql<{ run_id: string }[]>`select run_id from events where kind = 'RunStarted' order by id desc offset 5 limit 1`;
  // Ready tasks for claim-next to take (approved by the human, so any agent may claim them).
  await c.sql.begin(async (tx) => {
    await tx.unsafe(
      `with made as (insert into tasks (title, acceptance_criteria, approver_id, created_by) select 'Ready task ' || g, 'it passes', $1::uuid, $1::uuid from generate_series(1, 400) g returning id, number)
       insert into events (kind, actor, task_id, data) select 'TaskCreated', $1::uuid, id, jsonb_build_object('number', number, 'title', 'Ready task', 'approverId', $1::uuid) from made`,
      [human.id],
    );
  });
  return { cookie: `${SESSION_COOKIE}=${sessionToken}`, agents, taskId: task.id, runId: run.run_id };
}

function write(version: string, results: { size: number; events: number; notes: string[]; rows: Measured[] }[]) {
  const first = results[0];
  const lines = [
    `# Scale bench — ${new Date().toISOString()}`,
    "",
    `\`npm run bench -- --scale\` on one scratch database filled in SQL to each size in turn (bench/scale-fill.ts: messages in 8 rooms and direct`,
    `messages, runs of ten turns by ${AGENTS} agents, tasks carried to done, gate refusals; a year of monthly partitions), PostgreSQL ${version},`,
    `Node ${process.version}. Each figure: one client, sequential keep-alive requests through a real \`quorum start\` (restarted per size),`,
    "after warm-up; p50 and p99 of the timed requests. Ratio: p50 at the largest size ÷ p50 at the smallest (goal ≤ 1.5).",
    "",
    ...results.map((r) => `- ${label(r.size)}: ${r.events.toLocaleString("en")} events; ${r.notes.join(", ")}`),
    "",
    `| read path | ${results.map((r) => `${label(r.size)} p50 / p99 (ms)`).join(" | ")} | ${results.length > 1 ? `${label(results[results.length - 1].size)}÷${label(first.size)} p50` : ""} |`,
    `|---|${results.map(() => "---|").join("")}---|`,
  ];
  for (const row of first.rows) {
    const at = results.map((r) => r.rows.find((x) => x.name === row.name));
    const cells = at.map((m) => (m ? (m.error ? `error: ${m.error}` : `${m.p50.toFixed(1)} / ${m.p99.toFixed(1)}`) : "—"));
    const last = at[at.length - 1];
    const ratio = results.length > 1 && last && !last.error && !row.error ? `${(last.p50 / row.p50).toFixed(2)}×` : "";
    lines.push(`| ${row.name} | ${cells.join(" | ")} | ${ratio} |`);
  }
  const dir = fileURLToPath(new URL("./results/", import.meta.url));
  mkdirSync(dir, { recursive: true });
  const out = process.argv.find((a) => a.startsWith("--out="))?.slice(6);
  const file = join(dir, out ?? `${new Date().toISOString().slice(0, 10)}-scale.md`);
  writeFileSync(file, `${lines.join("\n")}\n`);
  console.log(lines.join("\n"));
  progress(`wrote ${file}`);
}

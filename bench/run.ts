// `npm run bench`: Quorum's figures beside their raw-database anchors, measured in the same run on the
// same database, medians of REPS repetitions. Writes bench/results/<date>-full.md (-quick with --quick) and prints the table.
// Usage: npm run bench [-- --quick] [-- --only=posting,claims,cycle,bill,setup,freshness,http,endpoints,labels] [-- --scale (bench/scale.ts)]
//   (DATABASE_URL's server, else an embedded Postgres in a temporary QUORUM_HOME; freshness and http run
//    through a real `quorum start` on the same database, built first if .next holds no build)
import { labelledSetReport } from "./diagnosis-labels";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { connect, withDatabase } from "../db/client";
import { startEmbeddedPostgres } from "../db/embedded";
import { runMigrations } from "../db/migrate";
import type { QuorumServer } from "../e2e/server";
import { createAgent, ensureHuman } from "../domain/principals/create-principal";
import { benchClaimCycle, benchClaims } from "./claims";
import { benchBillFold, runBillFoldScript } from "./fold";
import { efficiency, progress, QUICK, ratioText, REPS, rows, table, watchPostgresServer } from "./lib";
import { benchFreshness, benchHttp, startLiveServer, stopLiveServer } from "./live";
import { benchEndpoints, endpointsTable, recordingConnection } from "./endpoints";
import { benchPosting } from "./posting";
import { benchSetup } from "./setup";
import { startSearchIndexer } from "./search-indexer";
import { systemClock } from "../domain/clock";

async function main() {
  if (process.argv.includes("--scale")) {
    // The journal at 10k, 1M and 10M events: bench/scale.ts (its own scratch database on DATABASE_URL's server).
    const { runScale } = await import("./scale");
    return runScale();
  }
  let home: string | undefined;
  let stop: (() => Promise<void>) | undefined;
  let serverUrl = process.env.DATABASE_URL;
  let where = "DATABASE_URL";
  if (!serverUrl) {
    home = mkdtempSync(join(tmpdir(), "quorum-bench-"));
    chmodSync(home, 0o755);
    process.env.QUORUM_HOME = home;
    progress(`starting an embedded Postgres in ${home}`);
    const embedded = await startEmbeddedPostgres(home);
    serverUrl = embedded.ownerUrl; // the superuser: it creates the scratch databases
    stop = embedded.stop;
    where = "embedded Postgres (temporary QUORUM_HOME)";
  }
  const only = process.argv
    .find((a) => a.startsWith("--only="))
    ?.slice(7)
    .split(",");
  const wants = (s: string) => !only || only.includes(s);
  const name = `quorum_bench_${process.pid}`;
  const admin = postgres(withDatabase(serverUrl, "postgres"), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = withDatabase(serverUrl, name);
  process.env.DATABASE_URL = url; // route handlers (getDb) use the bench database
  // The endpoints section records what each route handler runs, through the process's own connection.
  if (wants("endpoints")) recordingConnection(url);
  const c = connect(url, { max: 20 });
  await watchPostgresServer(c.sql);
  let live: QuorumServer | undefined;
  let stopIndexer: (() => Promise<void>) | undefined;
  try {
    progress(`migrating ${name} on ${where}${QUICK ? " (--quick)" : ""}`);
    await runMigrations(url);
    const version = (await c.sql`show server_version`)[0].server_version as string;
    const human = await ensureHuman(c.db, "bench-human", systemClock);
    // The app's search sweeper runs through every section, as it does beside the app's writers: indexing
    // the journal after the fact (migration 0027) is work the database still does, so the bench pays it.
    stopIndexer = startSearchIndexer(c.db);
    const agents = await Promise.all(Array.from({ length: 16 }, (_, i) => createAgent(c.db, null, { name: `bench-agent-${i}`, role: "coder" }, systemClock)));
    if (wants("posting")) await benchPosting(c, human, agents.slice(0, 8));
    if (wants("claims")) await benchClaims(c, human, agents);
    if (wants("cycle")) await benchClaimCycle(c, url, human, agents);
    let billFoldReport = "";
    if (wants("bill")) {
      await benchBillFold();
      billFoldReport = await runBillFoldScript(serverUrl);
    }
    if (wants("setup")) await benchSetup(c, human);
    // The monitor against the labelled set of recorded flights: what it finds is set beside what a person labelled.
    const labelsSection = wants("labels") ? `\n## The MAST monitor on the labelled flights (bench/diagnosis-labels.ts)\n\n${labelledSetReport()}\n` : "";
    let endpointsSection = "";
    if (wants("freshness") || wants("http") || wants("endpoints")) {
      live = await startLiveServer(url);
      if (wants("endpoints")) {
        const { makeHuman } = await import("../test/helpers");
        const figures = await benchEndpoints(live, c, url, await makeHuman("bench-endpoints-human"), agents[14]);
        endpointsSection = `\n## Endpoints against their anchors (bench/endpoints.ts)\n\n${endpointsTable(figures)}\n`;
      }
      if (wants("freshness")) await benchFreshness(live, c, url, agents[15]);
      if (wants("http")) {
        const { makeHuman } = await import("../test/helpers");
        await benchHttp(live, c, await makeHuman("bench-http-human"), agents.slice(0, 8));
      }
    }
    const furthest = [...rows].sort((a, b) => efficiency(a) - efficiency(b))[0];
    const date = new Date().toISOString().slice(0, 10);
    const header = [
      `# Quorum bench — ${new Date().toISOString()}${QUICK ? " (--quick)" : ""}`,
      "",
      `Database: ${where}, PostgreSQL ${version}. Node ${process.version}. Medians of ${REPS} repetitions; every anchor measured in the same run on the same database.`,
      `Ratio: Quorum ÷ anchor for throughput (1.0 = the gate is free), Quorum's latency as a multiple of the anchor's for latencies.`,
      "",
    ].join("\n");
    const workload = [
      "",
      "Workloads: posting runs on a clock that moves 1 s per reading so the rate floor (30/min/agent) is not the bottleneck;",
      "in one room the 8 agents send direct messages (which skip the freshness gate by design) and a human speaks every 8th post",
      "(which resets the loop counters, and keeps the two-tier cap of 6 in force); in 8 rooms each agent broadcasts in its own room,",
      "the human speaks there every 4th post and the agent acks its cursor before broadcasting again. A refused post counts as nothing.",
      furthest ? `\nFurthest from its anchor: **${furthest.figure}** vs ${furthest.anchor} (${ratioText(furthest)}).` : "",
    ].join("\n");
    const billSection = billFoldReport ? `\n## The bill fold from the journal (bench/bill-fold.ts, same database server)\n\n\`\`\`\n${billFoldReport.trim()}\n\`\`\`\n` : "";
    const text = `${header}${table()}\n${workload}\n${billSection}${endpointsSection}${labelsSection}`;
    const dir = fileURLToPath(new URL("./results/", import.meta.url));
    mkdirSync(dir, { recursive: true });
    // `<date>.md` is left to people (a day's narrative); a run never overwrites it.
    const file = join(dir, `${date}${QUICK ? "-quick" : "-full"}${only ? `-only-${only.join("-")}` : ""}.md`);
    writeFileSync(file, text);
    console.log(`\n${text}`);
    progress(`wrote ${file}`);
  } finally {
    await stopIndexer?.();
    if (live) await stopLiveServer(live);
    await c.close();
    const { getConnection } = await import("../db/client");
    await getConnection()
      .close()
      .catch(() => {});
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
    await stop?.();
    if (home) rmSync(home, { recursive: true, force: true });
  }
}

await main();
process.exit(0);

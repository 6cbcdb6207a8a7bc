// claim-next against a bare SKIP LOCKED loop, and a worker's claim → submit cycle against graphile-worker,
// each on the same database in the same run.
import { Logger, run as runGraphileWorker, runMigrations as migrateGraphileWorker } from "graphile-worker";
import type { Connection } from "../db/client";
import { tasks } from "../db/schema";
import { systemClock } from "../domain/clock";
import type { Principal } from "../domain/principal";
import { claimNextTask } from "../domain/tasks/claim-next";
import { submitTask } from "../domain/tasks/submit";
import { cpuText, median, progress, QUICK, race, record, REPS, sleep } from "./lib";

const CLAIM_TASKS = QUICK ? 200 : 2_000;
const CYCLE_WORKERS = 8;

async function fillBoard(c: Connection, lead: Principal, tag: string) {
  for (let i = 0; i < CLAIM_TASKS; i += 500) {
    const batch = Array.from({ length: Math.min(500, CLAIM_TASKS - i) }, (_, j) => ({
      title: `bench ${tag}.${i + j}`,
      acceptanceCriteria: "claimed once",
      approverId: lead.id,
      createdBy: lead.id,
    }));
    await c.db.insert(tasks).values(batch);
  }
  await c.sql`analyze tasks`;
}

async function fillBareJobs(c: Connection) {
  await c.sql`drop table if exists bench_jobs`;
  await c.sql`create table bench_jobs (id bigserial primary key, status text not null default 'ready', owner int, claimed_at timestamptz)`;
  await c.sql`create index bench_jobs_ready_idx on bench_jobs (id) where status = 'ready'`;
  await c.sql`insert into bench_jobs (status) select 'ready' from generate_series(1, ${CLAIM_TASKS})`;
  await c.sql`analyze bench_jobs`;
}

export async function benchClaims(c: Connection, lead: Principal, workers: Principal[]) {
  for (const W of [1, 4, 16]) {
    const board: number[] = [];
    const bare: number[] = [];
    const costs = { board: [] as { node: number; postgres: number }[], bare: [] as { node: number; postgres: number }[] };
    for (let rep = 1; rep <= REPS; rep++) {
      progress(`claim-next vs bare SKIP LOCKED, ${W} worker(s), ${CLAIM_TASKS} tasks, rep ${rep}/${REPS}`);
      await fillBoard(c, lead, `${W}.${rep}`);
      await fillBareJobs(c);
      const runBoard = () => race(W, async (w) => (await claimNextTask(c.db, workers[w], systemClock)) !== null);
      const runBare = () =>
        race(W, async (w) => {
          const got = await c.sql`
            update bench_jobs set status = 'taken', owner = ${w}, claimed_at = now()
            where id = (select id from bench_jobs where status = 'ready' order by id for update skip locked limit 1)
            returning id`;
          return got.length > 0;
        });
      // Alternate the order so neither side always runs on a warmer cache.
      const [a, b] = rep % 2 ? [await runBoard(), await runBare()] : await runBare().then(async (b) => [await runBoard(), b]);
      if (a.count !== CLAIM_TASKS || b.count !== CLAIM_TASKS) throw new Error(`lost claims: claim-next ${a.count}, bare ${b.count} of ${CLAIM_TASKS}`);
      board.push(a.perSecond);
      bare.push(b.perSecond);
      costs.board.push(a.cpu);
      costs.bare.push(b.cpu);
    }
    record({
      section: "claims",
      figure: `claim-next, ${W} worker${W > 1 ? "s" : ""} (journal + focus window)`,
      value: median(board),
      unit: "claims/s",
      anchor: "bare UPDATE … SKIP LOCKED loop",
      anchorValue: median(bare),
      better: "higher",
      note: `${CLAIM_TASKS} tasks per repetition, every task claimed exactly once; ${cpuText("claims", costs.board)}; ${cpuText("bare", costs.bare)}`,
    });
  }
}

/** graphile-worker at concurrency 8 on the same database: jobs added in one statement, timed to the last success. */
async function graphileCycle(c: Connection, url: string): Promise<number> {
  let done = 0;
  let allDone!: () => void;
  const finished = new Promise<void>((resolve) => (allDone = resolve));
  const runner = await runGraphileWorker({
    connectionString: url,
    concurrency: CYCLE_WORKERS,
    noHandleSignals: true,
    pollInterval: 1_000,
    logger: new Logger(() => () => {}),
    taskList: { bench_cycle: async () => {} },
  });
  runner.events.on("job:success", () => {
    if (++done === CLAIM_TASKS) allDone();
  });
  const started = performance.now();
  await c.sql`select graphile_worker.add_job('bench_cycle', json_build_object('n', g)) from generate_series(1, ${CLAIM_TASKS}) g`;
  await finished;
  const perSecond = CLAIM_TASKS / ((performance.now() - started) / 1000);
  await runner.stop();
  // Completions are written in batches, so the last deletions may land just after the last success event.
  let left = -1;
  for (let i = 0; i < 100 && left !== 0; i++, await sleep(50)) [{ n: left }] = await c.sql`select count(*)::int as n from graphile_worker.jobs`;
  if (left !== 0) throw new Error(`graphile-worker left ${left} jobs`);
  return perSecond;
}

export async function benchClaimCycle(c: Connection, url: string, lead: Principal, workers: Principal[]) {
  await migrateGraphileWorker({ connectionString: url, logger: new Logger(() => () => {}) });
  const board: number[] = [];
  const graphile: number[] = [];
  let eventsPerCycle = 0;
  const costs: { node: number; postgres: number }[] = [];
  for (let rep = 1; rep <= REPS; rep++) {
    progress(`claim → submit at ${CYCLE_WORKERS} workers vs graphile-worker (concurrency ${CYCLE_WORKERS}), ${CLAIM_TASKS} tasks, rep ${rep}/${REPS}`);
    await fillBoard(c, lead, `cycle.${rep}`);
    const runBoard = () =>
      race(CYCLE_WORKERS, async (w) => {
        const task = await claimNextTask(c.db, workers[w], systemClock);
        if (!task) return false;
        await submitTask(c.db, workers[w], task.id, { fence: task.fence, summary: "done", evidence: "bench: nothing to show" }, systemClock);
        return true;
      });
    const [{ n: before }] = await c.sql`select count(*)::int as n from events`;
    // Alternate which goes first, so neither always runs on a warmer database.
    let quorum: Awaited<ReturnType<typeof runBoard>>;
    if (rep % 2) {
      quorum = await runBoard();
      graphile.push(await graphileCycle(c, url));
    } else {
      graphile.push(await graphileCycle(c, url));
      quorum = await runBoard();
    }
    if (quorum.count !== CLAIM_TASKS) throw new Error(`lost cycles: ${quorum.count} of ${CLAIM_TASKS}`);
    board.push(quorum.perSecond);
    costs.push(quorum.cpu);
    const [{ n: after }] = await c.sql`select count(*)::int as n from events`;
    eventsPerCycle = (after - before) / CLAIM_TASKS;
  }
  record({
    section: "claims",
    figure: `claim-next → submit, ${CYCLE_WORKERS} workers (2 transactions, lease, fence, evidence, ${eventsPerCycle} journal events each)`,
    value: median(board),
    unit: "tasks/s",
    anchor: `graphile-worker 0.17, concurrency ${CYCLE_WORKERS}, no-op task`,
    anchorValue: median(graphile),
    better: "higher",
    note: `${CLAIM_TASKS} per repetition; graphile-worker fetches and completes each job (jobs added in one statement, timed to the last success event; it writes completions in batches); ${cpuText("Quorum cycles", costs)}`,
  });
}

// What metrics cost: `DATABASE_URL=… npx tsx bench/observability.ts`.
// 1. The API's per-request watch (surfaces/web/request-watch.ts: a clock read, a listener, a histogram bucket on close), in
//    nanoseconds per request against the same loop without it, interleaved rounds, medians.
// 2. A scrape of /metrics (domain/metrics/render.ts) on a journal of EVENTS events: the first one after a start (it
//    counts the whole journal once) and the steady one (only what settled since), against a bare
//    `select count(*) from events`. A scratch database is created on the server and dropped after.
import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import postgres from "postgres";
import { connect } from "../db/client";
import { renderMetrics } from "../domain/metrics/render";
import { routeMatched, watchApiRequest } from "../surfaces/web/request-watch";
import { median, withScratchDatabase } from "./lib";

const EVENTS = Number(process.env.EVENTS ?? 1_000_000);
const REQUESTS = 200_000;

/** One request's life as the server sees it: arrival, a route matched, a 200 written, the socket's close. */
function lifecycle(watch: boolean): number {
  const socket = new Socket();
  const start = process.hrtime.bigint();
  for (let i = 0; i < REQUESTS; i++) {
    const req = new IncomingMessage(socket);
    req.method = "GET";
    req.url = "/api/tasks/8d7e0c55-6b3a-4a57-9d3e-0a1c2b3d4e5f";
    const res = new ServerResponse(req);
    if (watch) watchApiRequest(req, res, null);
    routeMatched(req, "/api/tasks/[id]");
    res.statusCode = 200;
    res.emit("close");
  }
  return Number(process.hrtime.bigint() - start) / REQUESTS;
}

function requestWatch(): void {
  lifecycle(true);
  lifecycle(false);
  const bare: number[] = [];
  const watched: number[] = [];
  for (let round = 0; round < 7; round++) {
    bare.push(lifecycle(false));
    watched.push(lifecycle(true));
  }
  const [b, w] = [median(bare), median(watched)];
  console.log(`request watch: ${w.toFixed(0)} ns per request with it, ${b.toFixed(0)} ns without (the request objects alone): +${(w - b).toFixed(0)} ns`);
}

async function scrapes(): Promise<void> {
  await withScratchDatabase(async (url) => {
    const seed = postgres(url, { max: 1, onnotice: () => {} });
    // A journal shaped like a busy hub's: mostly posts and deliveries, some refusals, claims and model turns.
    await seed.unsafe(`
      insert into principals (id, kind, name, role) values ('00000000-0000-4000-8000-000000000001', 'agent', 'bench-coder', 'coder');
      insert into events (kind, actor, run_id, data)
      select case i % 10 when 0 then 'GateRejected' when 1 then 'TaskClaimed' when 2 then 'ModelCalled' when 3 then 'BudgetDebited'
                         when 4 then 'ToolReturned' when 5 then 'MessageDelivered' else 'MessageSent' end,
             '00000000-0000-4000-8000-000000000001', 'run_' || (i / 50), 
             case i % 10 when 0 then '{"gate":"rate"}'::jsonb when 3 then '{"inputTokens":100,"outputTokens":20,"cachedTokens":0}'::jsonb
                         when 4 then '{"tool":"read_file","observation":{"is_error":false}}'::jsonb else '{}'::jsonb end
        from generate_series(1, ${EVENTS}) as i;
      insert into events (kind, actor, run_id, data)
      select 'RunStarted', '00000000-0000-4000-8000-000000000001', 'run_' || r, '{"model":"scripted"}'::jsonb from generate_series(0, ${EVENTS / 50}) as r;
      analyze events;`);
    await seed.end();
    const connection = connect(url, { max: 4 });
    const timed = async (run: () => Promise<unknown>) => {
      const start = performance.now();
      await run();
      return performance.now() - start;
    };
    const first = await timed(() => renderMetrics(connection.db));
    const steady: number[] = [];
    for (let i = 0; i < 9; i++) steady.push(await timed(() => renderMetrics(connection.db)));
    const counts: number[] = [];
    for (let i = 0; i < 9; i++) counts.push(await timed(() => connection.sql`select count(*) from events`));
    console.log(
      `scrape over ${EVENTS.toLocaleString("en")} events: first ${first.toFixed(0)} ms (counts the journal once), then ${median(steady).toFixed(1)} ms (median of 9); ` +
        `a bare count(*) of the journal: ${median(counts).toFixed(0)} ms`,
    );
    await connection.close();
  });
}

requestWatch();
await scrapes();
process.exit(0);

// Where one endpoint's time goes: the one router (surfaces/http/router.ts) on a node:http server in this process, on
// a scratch database, timed in three layers — the router called directly with a Request, the router behind
// node:http, and the bare HTTP floor — for `--cpu-prof` to profile the whole path.
// Usage: DATABASE_URL=<server> node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/profile-endpoint.ts [/api/journal?limit=50] [requests]
import { createServer } from "node:http";
import postgres from "postgres";
import { withDatabase } from "../db/client";
import { runMigrations } from "../db/migrate";
import { createApiRouter } from "../surfaces/web/api-router";
import { answerApi } from "../surfaces/http/router";
import { median, percentile } from "./lib";

const path = process.argv[2] ?? "/api/journal?limit=50";
const requests = Number(process.argv[3] ?? 2000);
const server = process.env.DATABASE_URL!;
const name = `quorum_profile_${process.pid}`;
const admin = postgres(withDatabase(server, "postgres"), { max: 1, onnotice: () => {} });
await admin.unsafe(`create database ${name}`);
const url = withDatabase(server, name);
process.env.DATABASE_URL = url;
const listen = (handler: Parameters<typeof createServer>[1]) =>
  new Promise<{ base: string; close: () => void }>((resolve) => {
    const s = createServer(handler);
    s.listen(0, "127.0.0.1", () => {
      const address = s.address();
      resolve({ base: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`, close: () => s.close() });
    });
  });
try {
  await runMigrations(url);
  const { makeHuman } = await import("../test/helpers");
  const { postMessage } = await import("../domain/rooms/post-message");
  const { systemClock } = await import("../domain/clock");
  const { getConnection } = await import("../db/client");
  const human = await makeHuman("profile-human");
  for (let i = 0; i < 60; i++) await postMessage(getConnection().db, human, "general", { body: `seed ${i} ${"x".repeat(200)}` }, systemClock);
  const router = createApiRouter();
  const quorum = await listen((req, res) => void router(req, res));
  const bare = await listen((_req, res) => void res.writeHead(200, { "content-type": "application/json", "content-length": 2 }).end("{}"));
  const headers = { cookie: human.cookie };
  const time = async (run: () => Promise<unknown>) => {
    const taken: number[] = [];
    for (let i = 0; i < requests; i++) {
      const t0 = performance.now();
      await run();
      taken.push(performance.now() - t0);
    }
    return `p50 ${median(taken).toFixed(2)} ms, p99 ${percentile(taken, 99).toFixed(2)} ms`;
  };
  const viaHttp = (base: string) => async () => void (await (await fetch(`${base}${path}`, { headers })).arrayBuffer());
  const direct = async () => void (await (await answerApi(new Request(`http://localhost${path}`, { headers: { host: "localhost", ...headers } }))).arrayBuffer());
  await time(viaHttp(quorum.base));
  console.log(`${path}, ${requests} requests one at a time, in one process:`);
  console.log(`  router called directly: ${await time(direct)}`);
  console.log(`  through the lean router on node:http: ${await time(viaHttp(quorum.base))}`);
  console.log(`  bare node:http answering {}: ${await time(viaHttp(bare.base))}`);
  quorum.close();
  bare.close();
  await getConnection().close();
} finally {
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
}
process.exit(0);

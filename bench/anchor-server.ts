// The endpoints' anchors (bench/endpoints.ts): a bare node:http server, in a process of its own as Quorum's is,
// answering each endpoint's path by running the statements Quorum ran for it (recorded by the bench, the
// caller's authentication left out) on postgres.js as named prepared statements, all sent at once on one
// connection (pipelined: one round trip) and answering their rows as JSON. What serving those rows costs with
// no framework, no auth and no rules. A plan marked `write` runs inside BEGIN … COMMIT in the same trip.
// Usage: tsx bench/anchor-server.ts PLANS.json (DATABASE_URL set); prints its port.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import postgres from "postgres";

export interface Statement {
  query: string;
  params: unknown[];
}
export interface Plan {
  statements: Statement[];
  write: boolean;
}

const plans = JSON.parse(readFileSync(process.argv[2], "utf8")) as Record<string, Plan>;
// One connection: the bench sends one request at a time, and one connection pipelines a plan's statements.
const sql = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });

async function run(plan: Plan): Promise<unknown[]> {
  // BEGIN, the writes and COMMIT go out together on the one connection (postgres.js allows a raw BEGIN at max: 1),
  // so they share a round trip; a failed statement turns the COMMIT into a rollback.
  const statements = plan.write ? [{ query: "begin", params: [] }, ...plan.statements, { query: "commit", params: [] }] : plan.statements;
  return Promise.all(statements.map((s) => sql.unsafe(s.query, s.params as postgres.ParameterOrJSON<never>[], { prepare: s.params.length > 0 })));
}

const server = createServer((req, res) => {
  // The body (a post's) is read and dropped: the plan carries the values.
  req.resume();
  req.once("end", async () => {
    const plan = plans[(req.url ?? "").split("?")[0]];
    if (!plan) return void res.writeHead(404).end();
    try {
      const results = await run(plan);
      const text = JSON.stringify(results);
      res.writeHead(plan.write ? 201 : 200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) }).end(text);
    } catch (error) {
      const text = JSON.stringify({ error: String(error) });
      res.writeHead(500, { "content-type": "application/json", "content-length": Buffer.byteLength(text) }).end(text);
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`${typeof address === "object" && address ? address.port : 0}\n`);
});
process.on("SIGTERM", () => {
  server.close();
  void sql.end({ timeout: 1 }).then(() => process.exit(0));
});

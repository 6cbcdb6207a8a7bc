// The HTTP floor's second anchor: a bare node:http server answering GET /api/health with postgres.js's
// `select 1` (what Quorum's /api/health runs), in a process of its own as Next's server is. Prints its port.
import { createServer } from "node:http";
import postgres from "postgres";

const sql = postgres(process.env.DATABASE_URL!, { max: 10, onnotice: () => {} });
const server = createServer(async (req, res) => {
  if (req.url !== "/api/health") {
    res.writeHead(404).end();
    return;
  }
  await sql`select 1`;
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ok: true }));
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`${typeof address === "object" && address ? address.port : 0}\n`);
});
process.on("SIGTERM", () => {
  server.close();
  void sql.end({ timeout: 1 }).then(() => process.exit(0));
});

// The Postgres host: the embedded Postgres on the host's bridge address (password logins from the test
// subnet only), migrated, its URLs printed as one JSON line. SIGTERM: a fast shutdown; SIGUSR1: an
// immediate one (the postmaster ends its sessions at once; the next start recovers from the log).
// Usage: pg-host.ts HOME ADDRESS SUBNET PORT [restart] (a restart starts the server only: no migrations)
import { startEmbeddedPostgres } from "../../db/embedded";

const [home, address, subnet, port, restart] = process.argv.slice(2);
const database = await startEmbeddedPostgres(home, () => {}, {
  port: Number(port),
  network: { address, subnet },
  settings: {
    // A host cut off mid-transaction must not hold its row and advisory locks (the lease sweeper's) for
    // hours: its session ends after 5 s idle in a transaction, and dead peers are noticed by keepalives.
    idle_in_transaction_session_timeout: "5s",
    tcp_keepalives_idle: "5",
    tcp_keepalives_interval: "2",
    tcp_keepalives_count: "3",
    max_connections: "200",
  },
});
if (restart !== "restart") await database.migrate();
const onBridge = (url: string) => url.replace("@127.0.0.1:", `@${address}:`);
process.stdout.write(`${JSON.stringify({ ready: true, url: onBridge(database.url), ownerUrl: onBridge(database.ownerUrl) })}\n`);
process.on("SIGTERM", () => {
  void database.stop().then(() => process.exit(0));
});
process.on("SIGUSR1", () => {
  database.kill();
  setTimeout(() => process.exit(0), 500);
});
setInterval(() => {}, 60_000);

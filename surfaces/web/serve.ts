// The web process of `quorum start` (bin/start.ts runs `node --import tsx surfaces/web/serve.ts -p PORT -H HOST`): one
// node:http server on which the lean router (./api-router.ts) answers /api/* and Next's request handler
// everything else — pages, assets, proxy.ts. Stops on SIGTERM/SIGINT: the listener closes, open requests
// finish (bin/child-lifeline.cjs cuts live streams), then the process exits.
//
// Why: Next's request path was most of every API call's floor, so /api/* bypasses it and answers about as
// fast as a bare node:http server (bench/results/notebook.md). Hono was not needed: the declarations are the
// routes, and matching them by segment is a page of code (surfaces/http/router.ts).
import { createServer } from "node:http";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { defaultToProductionBuild, webPort } from "@/domain/config";
import { startTracing } from "@/domain/telemetry/tracing";
import { createApiRouter } from "./api-router";
import { dispatch } from "./dispatch";
import { type RequestSpans, routeMatched } from "./request-watch";

const root = join(import.meta.dirname, "..", "..");

async function serve(): Promise<void> {
  const { values } = parseArgs({ options: { port: { type: "string", short: "p" }, hostname: { type: "string", short: "H" } } });
  const port = Number(values.port ?? webPort());
  const hostname = values.hostname ?? "127.0.0.1";
  // As `next start` does, before Next (and React) load: production builds, production code paths.
  defaultToProductionBuild();
  process.title = "quorum-web";
  // Before Next loads, so its own spans (pages) go to the same SDK; nothing is loaded when tracing is off.
  const tracing = await startTracing("web");
  const spans: RequestSpans | null = tracing ? (await import("./http-spans")).httpSpans() : null;

  const { default: next } = await import("next");
  const app = next({ dev: false, dir: root, hostname, port });
  // Runs instrumentation.ts register() (the sweepers) once, as `next start` does.
  await app.prepare();
  const pages = app.getRequestHandler();
  const api = createApiRouter(undefined, routeMatched);

  const server = createServer(dispatch({ api, pages, spans }));
  await new Promise<void>((listening, failed) => {
    server.once("error", failed);
    server.listen(port, hostname, () => listening());
  });
  console.log(`Web server listening on http://${hostname}:${port} (API: lean router; pages: Next)`);

  let stopping = false;
  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    server.close(() => {
      void Promise.all([app.close(), tracing?.shutdown()]).finally(() => process.exit(code));
    });
    server.closeIdleConnections();
    // The supervisor allows each process 5 s before it kills it, and Postgres stops only after the web
    // server: never spend that wait on a connection or on Next's close that will not end (a Ctrl-C of
    // `quorum start` once left Postgres running past the shutdown spec's 15 s).
    setTimeout(() => process.exit(code), 2_500);
  };
  process.on("SIGTERM", () => stop(143));
  process.on("SIGINT", () => stop(130));
}

serve().catch((error) => {
  console.error("the web server failed to start:", error);
  process.exit(1);
});

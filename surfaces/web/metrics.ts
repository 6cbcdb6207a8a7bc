// GET /metrics on `quorum start`'s server (surfaces/web/serve.ts routes it here, past Next): the exposition for Prometheus.
// Here the socket is at hand, so a scraper on this machine reads without a key (domain/metrics/access.ts has the
// rule); app/metrics/route.ts serves the same figures under plain `next start`.
import type { IncomingMessage, ServerResponse } from "node:http";
import { developmentBuild, hubUrlSetting, metricsTokenSetting } from "@/domain/config";
import { serverContext } from "@/domain/context";
import { QuorumError } from "@/domain/errors";
import { fromThisMachine, requireMetricsReader } from "@/domain/metrics/access";
import { renderMetrics } from "@/domain/metrics/render";
import { securityHeaders } from "@/domain/security-headers";

export function isMetricsPath(url: string | undefined): boolean {
  return url === "/metrics" || url?.startsWith("/metrics?") === true;
}

function send(res: ServerResponse, status: number, contentType: string, body: string, extra: Record<string, string> = {}): void {
  const headers: Record<string, string> = { ...extra, "Content-Type": contentType, "Cache-Control": "no-store", "Content-Length": String(Buffer.byteLength(body)) };
  for (const { key, value } of securityHeaders(developmentBuild())) headers[key] = value;
  res.writeHead(status, headers);
  res.end(body);
}

export async function serveMetrics(req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const method = req.method ?? "GET";
    if (method !== "GET" && method !== "HEAD") {
      return send(res, 405, "application/json", JSON.stringify({ error: "method_not_allowed", message: `/metrics answers GET and HEAD, not ${method}` }), { Allow: "GET, HEAD" });
    }
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(", ") : (value ?? null);
    };
    const { db, clock } = serverContext();
    const local = fromThisMachine(req.socket.remoteAddress, { get: header }, hubUrlSetting());
    await requireMetricsReader(
      db,
      { method, authorization: header("authorization"), cookie: header("cookie"), host: header("host"), origin: header("origin"), local },
      metricsTokenSetting(),
      clock,
    );
    const { body, contentType } = await renderMetrics(db);
    send(res, 200, contentType, body);
  } catch (error) {
    if (error instanceof QuorumError) return send(res, error.status, "application/json", JSON.stringify(error.toBody()));
    console.error("could not serve /metrics", error);
    send(res, 500, "application/json", JSON.stringify({ error: "internal", message: "something went wrong on our side; the request changed nothing" }));
  }
}

// Which handler answers a request on `quorum start`'s one server: the lean router for /api/* (each request watched
// for its latency, and traced when tracing is on), /metrics for Prometheus, Next for everything else.
import type { IncomingMessage, ServerResponse } from "node:http";
import { isMetricsPath, serveMetrics } from "./metrics";
import { type RequestSpans, watchApiRequest } from "./request-watch";
import { refusedTarget } from "./request-target";

type Handler = (req: IncomingMessage, res: ServerResponse) => unknown;

function isApiPath(url: string | undefined): boolean {
  return url !== undefined && (url === "/api" || url.startsWith("/api/") || url.startsWith("/api?"));
}

export function dispatch(handlers: { api: Handler; pages: Handler; spans: RequestSpans | null }): (req: IncomingMessage, res: ServerResponse) => void {
  const { api, pages, spans } = handlers;
  return (req, res) => {
    if (refusedTarget(req, res)) return;
    if (isApiPath(req.url)) {
      watchApiRequest(req, res, spans);
      void api(req, res);
    } else if (isMetricsPath(req.url)) void serveMetrics(req, res);
    else void pages(req, res);
  };
}

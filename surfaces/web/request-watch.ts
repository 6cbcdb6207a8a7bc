// What each API request costs, by route: its latency into /metrics (domain/metrics/api-requests.ts) and, with
// tracing on, a server span (./http-spans.ts). The route is the pattern the lean router matched, never the raw
// path. Per request: a clock read, one listener, and on close a map lookup and a histogram bucket.
import type { IncomingMessage, ServerResponse } from "node:http";
import { recordApiRequest } from "@/domain/metrics/api-requests";
import type { OnRouteMatched } from "./api-router";

const ROUTE = Symbol("quorum.route");
type Tagged = IncomingMessage & { [ROUTE]?: string };

/** What the router calls once a request matched a route. */
export const routeMatched: OnRouteMatched = (req, pattern) => {
  (req as Tagged)[ROUTE] = pattern;
};

/** A server span for one request: started when it arrives, ended when its response is done. */
export interface RequestSpans {
  start(req: IncomingMessage): (outcome: { route: string | null; status: number }) => void;
}

/** A response the client went away from before its headers: nginx's word for it, so it is not mistaken for a 200. */
const CLIENT_CLOSED = 499;

function isEventStream(res: ServerResponse): boolean {
  return String(res.getHeader("content-type") ?? "").startsWith("text/event-stream");
}

/** Watches one /api request to its end. */
export function watchApiRequest(req: IncomingMessage, res: ServerResponse, spans: RequestSpans | null): void {
  const started = performance.now();
  const endSpan = spans?.start(req);
  res.once("close", () => {
    const route = (req as Tagged)[ROUTE] ?? null;
    const status = res.headersSent ? res.statusCode : CLIENT_CLOSED;
    endSpan?.({ route, status });
    // A stream lasts as long as its client watches: quorum_sse_clients counts those instead.
    if (isEventStream(res)) return;
    recordApiRequest(req.method ?? "GET", route, status, (performance.now() - started) / 1000);
  });
}

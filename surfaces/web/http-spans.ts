// Server spans of the API, in OpenTelemetry's HTTP conventions: `{method} {route}` named by the pattern the lean
// router matched (`GET /api/tasks/[id]`), never the raw path; a caller's `traceparent` makes the span its child.
// A 5xx is an error; a 4xx is the client's, so it is not (the conventions' rule for server spans). Loaded only when
// tracing is on (surfaces/web/serve.ts).
import type { IncomingMessage } from "node:http";
import { propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { RequestSpans } from "./request-watch";

const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "CONNECT", "TRACE"]);

export function httpSpans(): RequestSpans {
  const tracer = trace.getTracer("quorum.web");
  return {
    start(req: IncomingMessage) {
      const method = KNOWN_METHODS.has(req.method ?? "") ? (req.method as string) : "_OTHER";
      const host = URL.parse(`http://${req.headers.host ?? "localhost"}`);
      const span = tracer.startSpan(
        method,
        {
          kind: SpanKind.SERVER,
          attributes: {
            "http.request.method": method,
            "url.path": (req.url ?? "/").split("?", 1)[0],
            "url.scheme": "http",
            "network.protocol.version": req.httpVersion,
            ...(host ? { "server.address": host.hostname, "server.port": Number(host.port) || 80 } : {}),
            ...(req.socket.remoteAddress ? { "client.address": req.socket.remoteAddress } : {}),
            ...(req.headers["user-agent"] ? { "user_agent.original": req.headers["user-agent"] } : {}),
          },
        },
        propagation.extract(ROOT_CONTEXT, req.headers),
      );
      return ({ route, status }) => {
        if (route) {
          span.setAttribute("http.route", route);
          span.updateName(`${method} ${route}`);
        }
        span.setAttribute("http.response.status_code", status);
        if (status >= 500) {
          span.setAttribute("error.type", String(status));
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
        span.end();
      };
    },
  };
}

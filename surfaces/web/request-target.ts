// What a request line may name before either router sees it: the origin form of RFC 9112
// §3.2.1, a path that is already resolved. An absolute-form target (`GET http://evil.example/room`)
// made Next redirect to that host; `/x/../api/stream` reached Next's copy of an API route, past the
// lean router and its per-principal stream counter. Neither is anything a browser or client sends.
import type { IncomingMessage, ServerResponse } from "node:http";

const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/** Why this target is refused, or null to serve it. */
export function requestTargetProblem(target: string | undefined): string | null {
  if (target === undefined || target === "") return "the request has no target";
  if (target === "*") return null;
  if (!target.startsWith("/")) return "send the path alone (origin form), not an absolute URL";
  const path = target.split(/[?#]/, 1)[0];
  if (path.startsWith("//")) return "a path may not start with //";
  if (path.split("/").some((segment) => DOT_SEGMENT.test(segment))) return "the path has '.' or '..' segments: send it resolved";
  return null;
}

/** Answers 400 (JSON, like every API error) and returns true when the target is refused. */
export function refusedTarget(req: IncomingMessage, res: ServerResponse): boolean {
  const problem = requestTargetProblem(req.url);
  if (!problem) return false;
  const body = JSON.stringify({ error: "invalid", message: `invalid request target: ${problem}` });
  res.writeHead(400, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body), "x-content-type-options": "nosniff" });
  res.end(body);
  return true;
}

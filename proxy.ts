// Next decodes a dynamic route's params before any handler runs, and answers a path that does not
// decode as UTF-8 (`/tasks/%FF`, or `/api/…` when Next serves the API alone) with a bare 500. This proxy
// refuses such a path first, the way the API refuses any bad input: 400 JSON naming the segment. On
// `quorum start` Next never sees /api: the one router checks its paths itself (surfaces/http/router.ts).
//
// It runs only on paths holding a `%`: no id, name or room of Quorum needs one, and Next buffers a
// proxied request's body for the proxy (up to its own 10 MB) before the route sees it. Every other
// request streams straight to its route, which refuses a body over 1 MiB while it arrives.
import { type NextRequest, NextResponse } from "next/server";
import { pathIssues, pathMessage } from "./domain/request-shape";

export function proxy(request: NextRequest): NextResponse {
  const issues = pathIssues(new URL(request.url).pathname);
  if (issues.length === 0) return NextResponse.next();
  return NextResponse.json({ error: "invalid", message: pathMessage(issues), issues }, { status: 400, headers: { "Cache-Control": "no-store" } });
}

export const config = {
  matcher: ["/:path(.*%.*)"],
};

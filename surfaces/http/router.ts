// The one router of /api: the declarations (surfaces/http/routes/) matched segment by segment, a static
// segment before a dynamic one (so /api/tasks/claim-next is never task "claim-next"), HEAD from GET, OPTIONS
// and 405 from the methods a path declares. The web server (surfaces/web/api-router.ts) and Next's catch-all
// (app/api/[...path]/route.ts) both hand it a Request; the bad-path check runs here, before anything decodes.
import { pathIssues, pathMessage } from "@/domain/request-shape";
import { answer } from "./answer";
import { json } from "./handler";
import { ROUTES } from "./routes";
import type { RouteSpec } from "./routes/route-spec";

type Segment = { kind: "static"; value: string } | { kind: "dynamic"; name: string };

export interface ApiPath {
  /** As declared: `/api/tasks/{id}/claim`. */
  path: string;
  segments: Segment[];
  /** By upper-case method. */
  methods: Map<string, RouteSpec>;
}

function segmentsOf(path: string): Segment[] {
  return path
    .split("/")
    .slice(1)
    .map((part) => {
      const name = /^\{(\w+)\}$/.exec(part)?.[1];
      return name ? { kind: "dynamic", name } : { kind: "static", value: part };
    });
}

/** Lower first: at the first segment where two paths differ in kind, the static one. */
function compare(a: ApiPath, b: ApiPath): number {
  for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i++) {
    if (a.segments[i].kind !== b.segments[i].kind) return a.segments[i].kind === "static" ? -1 : 1;
  }
  return a.segments.length - b.segments.length;
}

/** The /api paths of the declarations, in the order the matcher tries them. */
export function apiPaths(routes: RouteSpec[] = ROUTES): ApiPath[] {
  const byPath = new Map<string, ApiPath>();
  for (const route of routes) {
    if (!route.path.startsWith("/api/")) continue;
    const entry = byPath.get(route.path) ?? { path: route.path, segments: segmentsOf(route.path), methods: new Map() };
    entry.methods.set(route.method.toUpperCase(), route);
    byPath.set(route.path, entry);
  }
  return [...byPath.values()].sort(compare);
}

export interface ApiMatch {
  path: ApiPath;
  params: Record<string, string>;
}

/** The path a raw (still percent-encoded, already checked by `pathIssues`) pathname names, or null. */
export function matchApiPath(ordered: ApiPath[], pathname: string): ApiMatch | null {
  const parts = pathname.split("/").slice(1);
  for (const path of ordered) {
    if (path.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let matched = true;
    for (let i = 0; i < parts.length && matched; i++) {
      const segment = path.segments[i];
      if (segment.kind === "static") matched = parts[i] === segment.value;
      else params[segment.name] = decodeURIComponent(parts[i]);
    }
    if (matched) return { path, params };
  }
  return null;
}

/** The methods a path answers: those it declares, HEAD where it has GET, OPTIONS always. */
export function allowedMethods(path: ApiPath): string[] {
  const allowed = new Set(path.methods.keys());
  if (allowed.has("GET")) allowed.add("HEAD");
  allowed.add("OPTIONS");
  return [...allowed].sort();
}

/** Told which path a request matched, before it is answered (the web server labels metrics and spans with it). */
export type OnMatched = (path: string) => void;

export function createApiRouter(routes: RouteSpec[] = ROUTES): (request: Request, onMatched?: OnMatched) => Promise<Response> {
  const ordered = apiPaths(routes);
  return async (request, onMatched) => {
    const url = new URL(request.url);
    // Read raw from the request: URL normalises nothing in the path but would hide a `%` from the check's view of it.
    const pathname = url.pathname;
    const issues = pathIssues(pathname);
    if (issues.length) return json({ error: "invalid", message: pathMessage(issues), issues }, 400);
    // Next's default (no trailingSlash in next.config.ts): a path ending in / is redirected to the one without.
    if (pathname.length > 1 && pathname.endsWith("/")) {
      return new Response(null, { status: 308, headers: { Location: pathname.replace(/\/+$/, "") + url.search } });
    }
    const match = matchApiPath(ordered, pathname);
    if (!match) return json({ error: "not_found", message: `no API route at ${pathname}` }, 404);
    onMatched?.(match.path.path);
    const method = request.method.toUpperCase();
    const spec = match.path.methods.get(method) ?? (method === "HEAD" ? match.path.methods.get("GET") : undefined);
    if (!spec) {
      const allow = allowedMethods(match.path).join(", ");
      if (method === "OPTIONS") return new Response(null, { status: 204, headers: { Allow: allow } });
      return Response.json(
        { error: "method_not_allowed", message: `${match.path.path} answers ${allow}, not ${method}` },
        { status: 405, headers: { Allow: allow, "Cache-Control": "no-store" } },
      );
    }
    return answer(spec, request, match.params, routes);
  };
}

/** The router over every declaration, made on first use. */
let shared: ReturnType<typeof createApiRouter> | null = null;
export function answerApi(request: Request, onMatched?: OnMatched): Promise<Response> {
  shared ??= createApiRouter();
  return shared(request, onMatched);
}

// The API's routes as Next's app router sees them, for the lean router (web/api-router.ts): found by walking
// app/api for route.ts files at start, matched segment by segment with Next's precedence (a static segment
// beats a dynamic one, which beats a catch-all), trying the next candidate when a deeper segment fails.
import { readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";

export type Segment = { kind: "static"; value: string } | { kind: "dynamic"; name: string } | { kind: "catchAll"; name: string; optional: boolean };

export interface ApiRoute {
  /** As the folders spell it: `/api/tasks/[id]/claim`. */
  pattern: string;
  /** The route.ts file, absolute. */
  file: string;
  segments: Segment[];
}

/** A route's params as Next hands them over: a catch-all's value is the list of its segments. */
export type RouteParams = Record<string, string | string[]>;

export interface RouteMatch {
  route: ApiRoute;
  params: RouteParams;
}

function parseSegment(folder: string): Segment | null {
  // A route group `(name)` organises folders without adding a segment to the URL.
  if (/^\(.*\)$/.test(folder)) return null;
  const optional = /^\[\[\.\.\.(\w+)\]\]$/.exec(folder);
  if (optional) return { kind: "catchAll", name: optional[1], optional: true };
  const catchAll = /^\[\.\.\.(\w+)\]$/.exec(folder);
  if (catchAll) return { kind: "catchAll", name: catchAll[1], optional: false };
  const dynamic = /^\[(\w+)\]$/.exec(folder);
  if (dynamic) return { kind: "dynamic", name: dynamic[1] };
  return { kind: "static", value: folder };
}

/** Every route.ts under `apiDir` (the app's `app/api`); folders starting with `_` are private, as in Next. */
export function discoverApiRoutes(apiDir: string): ApiRoute[] {
  const files = (readdirSync(apiDir, { recursive: true }) as string[]).filter((f) => f.split(sep).at(-1) === "route.ts").sort();
  const routes: ApiRoute[] = [];
  for (const file of files) {
    const folders = relative(apiDir, join(apiDir, file)).split(sep).slice(0, -1);
    if (folders.some((folder) => folder.startsWith("_"))) continue;
    const segments: Segment[] = [{ kind: "static", value: "api" }];
    for (const folder of folders) {
      const segment = parseSegment(folder);
      if (segment) segments.push(segment);
    }
    routes.push({ pattern: `/api${folders.map((f) => `/${f}`).join("")}`, file: join(apiDir, file), segments });
  }
  return routes;
}

const RANK = { static: 0, dynamic: 1, catchAll: 2 } as const;

/** Lower first: static, then dynamic, then catch-all, segment by segment from the left. */
function compareRoutes(a: ApiRoute, b: ApiRoute): number {
  for (let i = 0; i < Math.max(a.segments.length, b.segments.length); i++) {
    const x = a.segments[i];
    const y = b.segments[i];
    if (!x || !y) return x ? 1 : -1;
    if (RANK[x.kind] !== RANK[y.kind]) return RANK[x.kind] - RANK[y.kind];
  }
  return 0;
}

/** The routes in the order the matcher tries them; build once at start. */
export function orderRoutes(routes: ApiRoute[]): ApiRoute[] {
  return [...routes].sort(compareRoutes);
}

function matchSegments(segments: Segment[], parts: string[]): RouteParams | null {
  const params: RouteParams = {};
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    if (segment.kind === "catchAll") {
      const rest = parts.slice(i);
      if (rest.length === 0 && !segment.optional) return null;
      if (rest.length) params[segment.name] = rest.map(decodeURIComponent);
      return params;
    }
    const part = parts[i];
    if (part === undefined) return null;
    if (segment.kind === "static") {
      if (part !== segment.value) return null;
    } else {
      params[segment.name] = decodeURIComponent(part);
    }
  }
  return parts.length === segments.length ? params : null;
}

/**
 * The route for a raw (still percent-encoded) path, or null. The path must have passed `pathIssues`
 * (server/request-shape.ts) first, so every segment decodes. Ordered routes (`orderRoutes`) make the
 * first match the one Next picks: across 67 routes a linear scan costs microseconds, below anything a
 * request measures, so no trie.
 */
export function matchApiRoute(ordered: ApiRoute[], pathname: string): RouteMatch | null {
  const parts = pathname.split("/").slice(1);
  for (const route of ordered) {
    const params = matchSegments(route.segments, parts);
    if (params) return { route, params };
  }
  return null;
}

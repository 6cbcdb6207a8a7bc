// The API's latency by route, as this process's lean router served it (surfaces/web/request-watch.ts records each request).
import { metrics } from "./registry";

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

type Child = ReturnType<ReturnType<typeof metrics>["process"]["http"]["labels"]>;
const children = new Map<string, Child>();

/**
 * One request: `route` is the matched route's pattern (`/api/tasks/[id]/claim`), never the raw path, so the
 * series stay as few as the routes; an unmatched path counts as `unmatched`, an unknown method as `OTHER`.
 */
export function recordApiRequest(method: string, route: string | null, status: number, seconds: number): void {
  const m = METHODS.has(method) ? method : "OTHER";
  const r = route ?? "unmatched";
  const key = `${m} ${r} ${status}`;
  let child = children.get(key);
  if (!child) {
    child = metrics().process.http.labels({ method: m, route: r, status: String(status) });
    children.set(key, child);
  }
  child.observe(seconds);
}
